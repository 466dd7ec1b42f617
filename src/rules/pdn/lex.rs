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

/// The longest quoted string (a tag value), in characters.
pub(crate) const MAX_STRING: usize = 4_096;
/// The longest comment, in characters.
pub(crate) const MAX_COMMENT: usize = 65_536;
/// The longest word: a move, a tag name, a move number, an annotation or a NAG.
pub(crate) const MAX_WORD: usize = 256;

/// Reads the text where it lies, a character at a time: a token never holds more than its
/// limit, whatever the file holds.
struct Lexer<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    at: usize,
    line: usize,
    column: usize,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    /// The byte `ahead` bytes on: enough to look ahead for ASCII, which never occurs inside a
    /// longer UTF-8 sequence.
    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.text.as_bytes().get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        match c {
            '\n' => {
                self.line += 1;
                self.column = 1;
            }
            // Half of a Windows line break: not a column.
            '\r' => {}
            _ => self.column += 1,
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    /// The run of characters that satisfy `f`, or, when it is longer than `max`, its length
    /// (the run is consumed either way).
    fn take_while(&mut self, f: impl Fn(char) -> bool, max: usize) -> Result<String, usize> {
        let mut s = String::new();
        let mut n = 0;
        while let Some(c) = self.peek().filter(|&c| f(c)) {
            if n < max {
                s.push(c);
            }
            n += 1;
            self.bump();
        }
        if n > max { Err(n) } else { Ok(s) }
    }

    /// A word of at most [`MAX_WORD`] characters, or the token that says it is too long.
    fn word(&mut self, f: impl Fn(char) -> bool, what: &str, make: fn(String) -> Tok) -> Tok {
        match self.take_while(f, MAX_WORD) {
            Ok(s) => make(s),
            Err(n) => too_long(what, n, MAX_WORD),
        }
    }

    /// Move text: digits, separators, and spaces after a separator (`1- 7`).
    fn move_text(&mut self) -> Result<String, usize> {
        let digits = |c: char| c.is_ascii_digit();
        let mut s = self.take_while(digits, MAX_WORD)?;
        loop {
            match self.peek() {
                Some(c @ ('-' | 'x' | 'X' | ':' | '/')) => {
                    s.push(c);
                    self.bump();
                    let mut ahead = 0;
                    while self.peek_byte(ahead) == Some(b' ') {
                        ahead += 1;
                    }
                    if self.peek_byte(ahead).is_some_and(|c| c.is_ascii_digit()) {
                        for _ in 0..ahead {
                            self.bump();
                        }
                        s.push_str(&self.take_while(digits, MAX_WORD)?);
                    }
                    if s.len() > MAX_WORD {
                        // The rest of the move, so the next token starts after it.
                        while self
                            .peek()
                            .is_some_and(|c| c.is_ascii_digit() || "-xX:/".contains(c))
                        {
                            self.bump();
                        }
                        return Err(s.len());
                    }
                }
                _ => return Ok(s),
            }
        }
    }

    /// A string or comment up to `close`, at most `max` characters kept.
    fn quoted(&mut self, close: char, max: usize, what: &str) -> Result<String, Tok> {
        let mut s = String::new();
        let mut n = 0usize;
        loop {
            let c = match self.bump() {
                None => return Err(Tok::Bad(format!("unterminated {what}"))),
                Some('\\') if close == '"' && matches!(self.peek(), Some('"' | '\\')) => {
                    self.bump().unwrap_or('\\')
                }
                Some(c) if c == close => break,
                Some('\n') if close == '"' => {
                    return Err(Tok::Bad(format!("{what} runs past the end of the line")));
                }
                Some(c) => c,
            };
            if n < max {
                s.push(c);
            }
            n += 1;
        }
        if n > max {
            Err(too_long(what, n, max))
        } else {
            Ok(s)
        }
    }

    fn next(&mut self) -> Option<Token> {
        loop {
            let c = self.peek()?;
            if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
            } else if c == '%' && self.column == 1 || c == ';' {
                self.skip_line();
            } else {
                break;
            }
        }
        let (line, column) = (self.line, self.column);
        let c = self.peek()?;
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
                self.quoted('"', MAX_STRING, "string")
                    .map_or_else(|bad| bad, Tok::Str)
            }
            '{' => {
                self.bump();
                // Line breaks inside a comment are layout, not content.
                self.quoted('}', MAX_COMMENT, "comment").map_or_else(
                    |bad| bad,
                    |s| Tok::Comment(s.split_whitespace().collect::<Vec<_>>().join(" ")),
                )
            }
            '(' => {
                let mut len = 1;
                while matches!(self.peek_byte(len), Some(b'!' | b'?')) {
                    len += 1;
                }
                self.bump();
                if len > 1 && self.peek_byte(len - 1) == Some(b')') {
                    let a = self.word(|c| c == '!' || c == '?', "annotation", Tok::Annotation);
                    self.bump();
                    a
                } else {
                    Tok::VariationOpen
                }
            }
            ')' => {
                self.bump();
                Tok::VariationClose
            }
            '!' | '?' => self.word(|c| c == '!' || c == '?', "annotation", Tok::Annotation),
            '$' => {
                self.bump();
                match self.word(|c| c.is_ascii_digit(), "NAG", Tok::Nag) {
                    Tok::Nag(n) if n.is_empty() => Tok::Bad("'$' without a number".into()),
                    t => t,
                }
            }
            '*' => {
                self.bump();
                Tok::Result("*".into())
            }
            '.' => {
                let mut dots = 0;
                while self.peek() == Some('.') {
                    self.bump();
                    dots += 1;
                }
                if dots >= 2 {
                    Tok::Ellipsis
                } else {
                    Tok::Bad("a '.' where a move was expected".into())
                }
            }
            c if c.is_ascii_digit() => {
                let mut end = 0;
                while self.peek_byte(end).is_some_and(|c| c.is_ascii_digit()) {
                    end += 1;
                }
                if self.peek_byte(end) == Some(b'.') {
                    let number =
                        self.word(|c| c.is_ascii_digit(), "move number", |_| Tok::MoveNumber);
                    while self.peek() == Some('.') {
                        self.bump();
                    }
                    number
                } else {
                    match self.move_text() {
                        Err(n) => too_long("move", n, MAX_WORD),
                        Ok(text) if RESULTS.contains(&text.as_str()) => Tok::Result(text),
                        Ok(text) if text.contains(['-', 'x', 'X', ':']) => Tok::Move(text),
                        Ok(text) => Tok::Bad(format!("{text:?} is neither a move nor a result")),
                    }
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                self.word(|c| c.is_alphanumeric() || c == '_', "name", Tok::Symbol)
            }
            other => {
                self.bump();
                Tok::Bad(format!("unexpected character {other:?}"))
            }
        };
        Some(Token { tok, line, column })
    }
}

fn too_long(what: &str, n: usize, max: usize) -> Tok {
    Tok::Bad(format!("{what} of {n} characters (at most {max})"))
}

/// Splits decoded PDN text into tokens. Never fails: what is not PDN becomes [`Tok::Bad`].
pub(crate) fn tokenize(text: &str) -> Vec<Token> {
    let mut lexer = Lexer {
        text,
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
