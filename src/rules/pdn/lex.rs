//! PDN tokens with their line and column.
#![forbid(unsafe_code)]

/// One token of a PDN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `[`
    TagOpen,
    /// `]`
    TagClose,
    /// A tag name.
    Symbol(String),
    /// A quoted string, unescaped.
    Str(String),
    /// `{…}`, without the braces.
    Comment(String),
    /// `(` opening a variation.
    VariationOpen,
    /// `)`
    VariationClose,
    /// `12.` or `12...`
    MoveNumber,
    /// `...` standing for a move not given (Black to move first).
    Ellipsis,
    /// Move text such as `32-28` or `47x38x24`.
    Move(String),
    /// `!`, `?!`, `!!` and the like (also written in parentheses after a move).
    Annotation(String),
    /// `$n`
    Nag(String),
    /// A game result or `*`.
    Result(String),
    /// Something that is not PDN; the text says what.
    Bad(String),
}

/// A token and where it starts (1-based line and column, in characters).
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

const RESULTS: [&str; 8] = ["2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0-0", "*"];

struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.get(self.at).copied()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    fn take_while(&mut self, f: impl Fn(char) -> bool) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek(0).filter(|&c| f(c)) {
            s.push(c);
            self.bump();
        }
        s
    }

    /// Move text: digits, separators, and spaces after a separator (`1- 7`).
    fn move_text(&mut self) -> String {
        let mut s = self.take_while(|c| c.is_ascii_digit());
        loop {
            match self.peek(0) {
                Some(c @ ('-' | 'x' | 'X' | ':' | '/')) => {
                    s.push(c);
                    self.bump();
                    let mut ahead = 0;
                    while self.peek(ahead) == Some(' ') {
                        ahead += 1;
                    }
                    if self.peek(ahead).is_some_and(|c| c.is_ascii_digit()) {
                        for _ in 0..ahead {
                            self.bump();
                        }
                        s.push_str(&self.take_while(|c| c.is_ascii_digit()));
                    }
                }
                _ => return s,
            }
        }
    }

    fn next(&mut self) -> Option<Token> {
        loop {
            let c = self.peek(0)?;
            if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
            } else if c == '%' && self.column == 1 || c == ';' {
                self.skip_line();
            } else {
                break;
            }
        }
        let (line, column) = (self.line, self.column);
        let c = self.peek(0)?;
        let tok = match c {
            '[' => {
                self.bump();
                Tok::TagOpen
            }
            ']' => {
                self.bump();
                Tok::TagClose
            }
            '"' => {
                self.bump();
                let mut s = String::new();
                loop {
                    match self.bump() {
                        None => break Tok::Bad("unterminated string".into()),
                        Some('"') => break Tok::Str(s),
                        Some('\\') if matches!(self.peek(0), Some('"' | '\\')) => {
                            s.extend(self.bump());
                        }
                        Some('\n') => {
                            break Tok::Bad("string runs past the end of the line".into());
                        }
                        Some(ch) => s.push(ch),
                    }
                }
            }
            '{' => {
                self.bump();
                let mut s = String::new();
                loop {
                    match self.bump() {
                        None => break Tok::Bad("unterminated comment".into()),
                        // Line breaks inside a comment are layout, not content.
                        Some('}') => {
                            break Tok::Comment(s.split_whitespace().collect::<Vec<_>>().join(" "));
                        }
                        Some(ch) => s.push(ch),
                    }
                }
            }
            '(' => {
                let mut len = 1;
                while matches!(self.peek(len), Some('!' | '?')) {
                    len += 1;
                }
                if len > 1 && self.peek(len) == Some(')') {
                    self.bump();
                    let a = self.take_while(|c| c == '!' || c == '?');
                    self.bump();
                    Tok::Annotation(a)
                } else {
                    self.bump();
                    Tok::VariationOpen
                }
            }
            ')' => {
                self.bump();
                Tok::VariationClose
            }
            '!' | '?' => Tok::Annotation(self.take_while(|c| c == '!' || c == '?')),
            '$' => {
                self.bump();
                let n = self.take_while(|c| c.is_ascii_digit());
                if n.is_empty() {
                    Tok::Bad("'$' without a number".into())
                } else {
                    Tok::Nag(n)
                }
            }
            '*' => {
                self.bump();
                Tok::Result("*".into())
            }
            '.' => {
                let dots = self.take_while(|c| c == '.');
                if dots.len() >= 2 {
                    Tok::Ellipsis
                } else {
                    Tok::Bad("a '.' where a move was expected".into())
                }
            }
            c if c.is_ascii_digit() => {
                let digits_end = (0..).find(|&i| !self.peek(i).is_some_and(|c| c.is_ascii_digit()));
                if digits_end.is_some_and(|end| self.peek(end) == Some('.')) {
                    self.take_while(|c| c.is_ascii_digit());
                    self.take_while(|c| c == '.');
                    Tok::MoveNumber
                } else {
                    let text = self.move_text();
                    if RESULTS.contains(&text.as_str()) {
                        Tok::Result(text)
                    } else if text.contains(['-', 'x', 'X', ':']) {
                        Tok::Move(text)
                    } else {
                        Tok::Bad(format!("{text:?} is neither a move nor a result"))
                    }
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                Tok::Symbol(self.take_while(|c| c.is_alphanumeric() || c == '_'))
            }
            other => {
                self.bump();
                Tok::Bad(format!("unexpected character {other:?}"))
            }
        };
        Some(Token { tok, line, column })
    }
}

/// Splits decoded PDN text into tokens. Never fails: what is not PDN becomes [`Tok::Bad`].
pub(crate) fn tokenize(text: &str) -> Vec<Token> {
    let mut lexer = Lexer {
        chars: text.chars().filter(|&c| c != '\r').collect(),
        at: 0,
        line: 1,
        column: 1,
    };
    std::iter::from_fn(|| lexer.next()).collect()
}

/// Decodes a PDN file: UTF-8 when it is valid UTF-8, otherwise Latin-1 (Windows exports).
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokenize(s).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn moves_numbers_results_and_annotations() {
        assert_eq!(
            toks("1.32-28!? 19-23(!?!!!) 2. 28x19 $3 12... 1- 7 06-11 2-0"),
            vec![
                Tok::MoveNumber,
                Tok::Move("32-28".into()),
                Tok::Annotation("!?".into()),
                Tok::Move("19-23".into()),
                Tok::Annotation("!?!!!".into()),
                Tok::MoveNumber,
                Tok::Move("28x19".into()),
                Tok::Nag("3".into()),
                Tok::MoveNumber,
                Tok::Move("1-7".into()),
                Tok::Move("06-11".into()),
                Tok::Result("2-0".into()),
            ]
        );
        assert_eq!(toks("1/2-1/2"), vec![Tok::Result("1/2-1/2".into())]);
    }

    #[test]
    fn tags_comments_and_positions() {
        let t = tokenize("[Event \"a \\\"b\\\" [4/4]\"]\r\n{ x\r\n y } ( 1. ... 5-10 )");
        let kinds: Vec<Tok> = t.iter().map(|t| t.tok.clone()).collect();
        assert_eq!(
            kinds,
            vec![
                Tok::TagOpen,
                Tok::Symbol("Event".into()),
                Tok::Str("a \"b\" [4/4]".into()),
                Tok::TagClose,
                Tok::Comment("x y".into()),
                Tok::VariationOpen,
                Tok::MoveNumber,
                Tok::Ellipsis,
                Tok::Move("5-10".into()),
                Tok::VariationClose,
            ]
        );
        assert_eq!((t[4].line, t[4].column), (2, 1));
        assert_eq!((t[5].line, t[5].column), (3, 6));
    }

    #[test]
    fn latin1_is_decoded() {
        assert_eq!(decode(b"Fryksl\xe2n"), "Frykslân");
        assert_eq!(decode("Fryslân".as_bytes()), "Fryslân");
    }
}
