//! Key decoding for remote terminals: the bytes an SSH client sends (UTF-8 text, control keys,
//! escape sequences) become the key events the TUI understands. A lone Esc cannot be told from
//! the start of a sequence until a moment passes, so the decoder holds it until [`Decoder::flush`].

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// Turns a byte stream into events.
#[derive(Debug, Default)]
pub struct Decoder {
    pending: Vec<u8>,
}

/// How long an escape sequence may be before it is given up as garbage.
const LONGEST: usize = 32;

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn with(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, modifiers))
}

/// What the front of the buffer holds.
enum Parsed {
    /// An event (or nothing, for a sequence we ignore) and the bytes it used.
    Done(Option<Event>, usize),
    /// More bytes are needed.
    Incomplete,
}

fn csi_key(params: &[u8], last: u8) -> Option<Event> {
    let text = std::str::from_utf8(params).ok()?;
    let mut parts = text.split(';');
    let first: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(1);
    let modifier: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(1);
    let mut mods = KeyModifiers::NONE;
    let m = modifier.saturating_sub(1);
    if m & 1 != 0 {
        mods |= KeyModifiers::SHIFT;
    }
    if m & 2 != 0 {
        mods |= KeyModifiers::ALT;
    }
    if m & 4 != 0 {
        mods |= KeyModifiers::CONTROL;
    }
    let code = match last {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        b'Z' => return Some(with(KeyCode::BackTab, KeyModifiers::SHIFT)),
        b'~' => match first {
            1 | 7 => KeyCode::Home,
            2 => KeyCode::Insert,
            3 => KeyCode::Delete,
            4 | 8 => KeyCode::End,
            5 => KeyCode::PageUp,
            6 => KeyCode::PageDown,
            n @ 11..=15 => KeyCode::F((n - 10) as u8),
            n @ 17..=21 => KeyCode::F((n - 11) as u8),
            n @ 23..=24 => KeyCode::F((n - 12) as u8),
            _ => return None,
        },
        _ => return None,
    };
    Some(with(code, mods))
}

/// An SGR mouse report `ESC [ < b ; x ; y M|m`.
fn sgr_mouse(params: &[u8], last: u8) -> Option<Event> {
    let text = std::str::from_utf8(params.strip_prefix(b"<")?).ok()?;
    let mut n = text.split(';').map(|p| p.parse::<u16>().ok());
    let (b, x, y) = (n.next()??, n.next()??, n.next()??);
    let button = match b & 3 {
        0 => MouseButton::Left,
        1 => MouseButton::Middle,
        _ => MouseButton::Right,
    };
    let kind = match (b & 64 != 0, b & 32 != 0, last) {
        (true, _, _) if b & 1 == 0 => MouseEventKind::ScrollUp,
        (true, _, _) => MouseEventKind::ScrollDown,
        (false, true, _) => MouseEventKind::Drag(button),
        (false, false, b'M') => MouseEventKind::Down(button),
        _ => MouseEventKind::Up(button),
    };
    Some(Event::Mouse(MouseEvent {
        kind,
        column: x.saturating_sub(1),
        row: y.saturating_sub(1),
        modifiers: KeyModifiers::NONE,
    }))
}

fn parse(buf: &[u8]) -> Parsed {
    let Some(&first) = buf.first() else {
        return Parsed::Incomplete;
    };
    match first {
        0x1b => match buf.get(1) {
            None => Parsed::Incomplete,
            Some(b'[') => {
                // CSI: parameters, then one final byte in 0x40..=0x7e.
                let Some(end) = buf[2..].iter().position(|b| (0x40..=0x7e).contains(b)) else {
                    return if buf.len() > LONGEST {
                        Parsed::Done(None, buf.len())
                    } else {
                        Parsed::Incomplete
                    };
                };
                let params = &buf[2..2 + end];
                let last = buf[2 + end];
                let event = if params.first() == Some(&b'<') {
                    sgr_mouse(params, last)
                } else {
                    csi_key(params, last)
                };
                Parsed::Done(event, 3 + end)
            }
            Some(b'O') => match buf.get(2) {
                None => Parsed::Incomplete,
                Some(&c) => {
                    let code = match c {
                        b'A' => Some(KeyCode::Up),
                        b'B' => Some(KeyCode::Down),
                        b'C' => Some(KeyCode::Right),
                        b'D' => Some(KeyCode::Left),
                        b'H' => Some(KeyCode::Home),
                        b'F' => Some(KeyCode::End),
                        b'P'..=b'S' => Some(KeyCode::F(c - b'P' + 1)),
                        b'M' => Some(KeyCode::Enter),
                        _ => None,
                    };
                    Parsed::Done(code.map(key), 3)
                }
            },
            // Esc then a character is Alt+character.
            Some(&c) if (0x20..0x7f).contains(&c) => {
                Parsed::Done(Some(with(KeyCode::Char(c as char), KeyModifiers::ALT)), 2)
            }
            Some(_) => Parsed::Done(Some(key(KeyCode::Esc)), 1),
        },
        b'\r' | b'\n' => Parsed::Done(Some(key(KeyCode::Enter)), 1),
        b'\t' => Parsed::Done(Some(key(KeyCode::Tab)), 1),
        0x7f | 0x08 => Parsed::Done(Some(key(KeyCode::Backspace)), 1),
        0 => Parsed::Done(None, 1),
        c @ 1..=26 => Parsed::Done(
            Some(with(
                KeyCode::Char((b'a' + c - 1) as char),
                KeyModifiers::CONTROL,
            )),
            1,
        ),
        c if c < 0x20 => Parsed::Done(None, 1),
        _ => {
            let len = match first {
                0x00..=0x7f => 1,
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf7 => 4,
                _ => return Parsed::Done(None, 1),
            };
            if buf.len() < len {
                return Parsed::Incomplete;
            }
            match std::str::from_utf8(&buf[..len])
                .ok()
                .and_then(|s| s.chars().next())
            {
                Some(c) => Parsed::Done(Some(key(KeyCode::Char(c))), len),
                None => Parsed::Done(None, 1),
            }
        }
    }
}

impl Decoder {
    /// Takes in bytes; returns the events they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.pending.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Parsed::Done(event, used) = parse(&self.pending) {
            self.pending.drain(..used);
            out.extend(event);
        }
        out
    }

    /// Whether bytes wait for the rest of a sequence.
    pub fn is_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// After a pause: what is left is a lone Esc (and whatever followed it), or garbage.
    pub fn flush(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        while !self.pending.is_empty() {
            if self.pending[0] == 0x1b {
                self.pending.remove(0);
                out.push(key(KeyCode::Esc));
                out.extend(self.feed(&[]));
            } else {
                // An unfinished UTF-8 character: dropped.
                self.pending.remove(0);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn codes(events: &[Event]) -> Vec<KeyCode> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Key(k) => Some(k.code),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn keys_and_sequences_decode() {
        let mut d = Decoder::default();
        let e = d.feed(b"32-28\r\x1b[A\x1b[B\x1bOC\x1b[D\x1b[5~\x1b[6~\x1b[H\x1b[4~\t\x7f");
        assert_eq!(
            codes(&e),
            [
                KeyCode::Char('3'),
                KeyCode::Char('2'),
                KeyCode::Char('-'),
                KeyCode::Char('2'),
                KeyCode::Char('8'),
                KeyCode::Enter,
                KeyCode::Up,
                KeyCode::Down,
                KeyCode::Right,
                KeyCode::Left,
                KeyCode::PageUp,
                KeyCode::PageDown,
                KeyCode::Home,
                KeyCode::End,
                KeyCode::Tab,
                KeyCode::Backspace,
            ]
        );
        assert_eq!(
            d.feed(b"\x03"),
            [with(KeyCode::Char('c'), KeyModifiers::CONTROL)]
        );
        assert_eq!(d.feed("é♛".as_bytes()).len(), 2);
        assert_eq!(
            d.feed(b"\x1b[1;5C"),
            [with(KeyCode::Right, KeyModifiers::CONTROL)]
        );
    }

    #[test]
    fn a_lone_esc_waits_for_the_pause_and_split_sequences_join() {
        let mut d = Decoder::default();
        assert!(d.feed(b"\x1b").is_empty());
        assert!(d.is_pending());
        assert_eq!(codes(&d.flush()), [KeyCode::Esc]);
        assert!(d.feed(b"\x1b[").is_empty());
        assert_eq!(codes(&d.feed(b"A")), [KeyCode::Up]);
        let bytes = "♛".as_bytes();
        assert!(d.feed(&bytes[..1]).is_empty());
        assert_eq!(codes(&d.feed(&bytes[1..])), [KeyCode::Char('♛')]);
    }

    #[test]
    fn mouse_clicks_decode() {
        let mut d = Decoder::default();
        let e = d.feed(b"\x1b[<0;12;5M\x1b[<0;12;5m");
        assert_eq!(
            e[0],
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: 11,
                row: 4,
                modifiers: KeyModifiers::NONE
            })
        );
        assert!(matches!(
            e[1],
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Up(_),
                ..
            })
        ));
    }

    proptest! {
        #[test]
        fn garbage_never_panics_and_never_stalls(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let mut d = Decoder::default();
            d.feed(&bytes);
            d.flush();
            prop_assert!(!d.is_pending());
        }
    }
}
