//! Server-sent events: an incremental decoder over raw bytes. Chunks may split lines,
//! UTF-8 characters and CRLF pairs anywhere; an event's single `data:` line is handed out
//! as a slice of the buffer, without copying.

use std::ops::Range;

/// One dispatched event. `event` is empty when the server sent no `event:` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SseEvent<'a> {
    pub event: &'a str,
    pub data: &'a str,
}

/// Why the bytes cannot be read as events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    #[error("the event stream contains bytes that are not UTF-8")]
    NotUtf8,
    #[error(
        "the event stream sent more than {} without ending an event \
         (limits.max_sse_line_bytes)",
        super::guard::size(*.0)
    )]
    TooLarge(usize),
}

/// The largest event accepted by default; a server that never ends one cannot grow
/// memory forever.
pub const MAX_EVENT_BYTES: usize = 8 << 20;

#[derive(Debug)]
pub struct SseDecoder {
    /// The largest event accepted (`limits.max_sse_line_bytes`).
    max_event: usize,
    /// A chunk was refused because the unfinished event would pass `max_event`.
    overflow: bool,
    buf: Vec<u8>,
    /// First byte of the event being read; everything before it has been handed out.
    event_start: usize,
    /// Bytes from `event_start` up to here are complete lines of that event.
    scan: usize,
    /// A leading byte-order mark has been checked for.
    bom_checked: bool,
    /// Multi-line `data:` joined with `\n`.
    joined: Vec<u8>,
}

/// Where an event's data lives after parsing its lines.
enum Data {
    None,
    Slice(Range<usize>),
    Joined,
}

impl Default for SseDecoder {
    fn default() -> Self {
        Self::with_limit(MAX_EVENT_BYTES)
    }
}

impl SseDecoder {
    /// A decoder refusing any event longer than `max_event` bytes.
    pub fn with_limit(max_event: usize) -> Self {
        Self {
            max_event,
            overflow: false,
            buf: Vec::new(),
            event_start: 0,
            scan: 0,
            bom_checked: false,
            joined: Vec::new(),
        }
    }

    /// Appends bytes received from the network. A chunk that cannot end the unfinished
    /// event (it holds no line break) and would take it past the limit is not stored:
    /// the buffer never grows much beyond the limit, however long the line.
    pub fn push(&mut self, chunk: &[u8]) {
        if self.event_start > 0 {
            self.buf.drain(..self.event_start);
            self.scan -= self.event_start;
            self.event_start = 0;
        }
        let breaks_line = chunk.iter().any(|&byte| byte == b'\n' || byte == b'\r');
        if self.overflow
            || (!breaks_line && self.buf.len().saturating_add(chunk.len()) > self.max_event)
        {
            self.overflow = true;
            return;
        }
        self.buf.extend_from_slice(chunk);
        if !self.bom_checked && self.buf.len() >= 3 {
            self.bom_checked = true;
            if self.buf.starts_with(&[0xEF, 0xBB, 0xBF]) {
                self.buf.drain(..3);
            }
        }
    }

    /// The next complete event, if the bytes so far hold one. Comments, events without
    /// data and unknown fields are skipped, as the SSE specification says.
    pub fn next_event(&mut self) -> Option<Result<SseEvent<'_>, SseError>> {
        loop {
            if self.overflow {
                return Some(Err(SseError::TooLarge(self.max_event)));
            }
            let Some((line_len, terminator)) = line_at(&self.buf[self.scan..]) else {
                return (self.buf.len() - self.event_start > self.max_event)
                    .then_some(Err(SseError::TooLarge(self.max_event)));
            };
            let line_start = self.scan;
            self.scan += line_len + terminator;
            if line_len > 0 {
                continue;
            }
            let lines = self.event_start..line_start;
            self.event_start = self.scan;
            let (event, data) = self.fields(lines);
            let data = match data {
                Data::None => continue,
                Data::Slice(range) => &self.buf[range],
                Data::Joined => &self.joined,
            };
            let event = &self.buf[event];
            return Some(
                match (std::str::from_utf8(event), std::str::from_utf8(data)) {
                    (Ok(event), Ok(data)) => Ok(SseEvent { event, data }),
                    (Err(_), _) | (_, Err(_)) => Err(SseError::NotUtf8),
                },
            );
        }
    }

    /// Reads the field lines of one event: the `event:` value and where the data is.
    fn fields(&mut self, lines: Range<usize>) -> (Range<usize>, Data) {
        let mut event = 0..0;
        let mut data = Data::None;
        let mut at = lines.start;
        while at < lines.end {
            let Some((len, terminator)) = line_at(&self.buf[at..lines.end + 1]) else {
                break;
            };
            let line = at..at + len;
            at += len + terminator;
            let bytes = &self.buf[line.clone()];
            if bytes.first() == Some(&b':') {
                continue;
            }
            let (name, value) = match bytes.iter().position(|&byte| byte == b':') {
                Some(colon) => {
                    let skip = usize::from(bytes.get(colon + 1) == Some(&b' '));
                    (&bytes[..colon], line.start + colon + 1 + skip..line.end)
                }
                None => (bytes, line.end..line.end),
            };
            match name {
                b"data" => {
                    data = match data {
                        Data::None => Data::Slice(value),
                        Data::Slice(first) => {
                            self.joined.clear();
                            self.joined.extend_from_slice(&self.buf[first]);
                            self.joined.push(b'\n');
                            self.joined.extend_from_slice(&self.buf[value]);
                            Data::Joined
                        }
                        Data::Joined => {
                            self.joined.push(b'\n');
                            self.joined.extend_from_slice(&self.buf[value]);
                            Data::Joined
                        }
                    };
                }
                b"event" => event = value,
                _ => {}
            }
        }
        (event, data)
    }
}

/// The length of the first line in `bytes` and of its terminator (`\n`, `\r\n` or `\r`),
/// or `None` if the line is not complete yet. A `\r` at the very end waits for the next
/// byte, which may be its `\n`.
fn line_at(bytes: &[u8]) -> Option<(usize, usize)> {
    let end = bytes
        .iter()
        .position(|&byte| byte == b'\n' || byte == b'\r')?;
    if bytes[end] == b'\n' {
        return Some((end, 1));
    }
    match bytes.get(end + 1) {
        Some(b'\n') => Some((end, 2)),
        Some(_) => Some((end, 1)),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in_pieces(input: &str, piece: usize) -> Vec<(String, String)> {
        let mut decoder = SseDecoder::default();
        let mut events = Vec::new();
        for chunk in input.as_bytes().chunks(piece) {
            decoder.push(chunk);
            while let Some(event) = decoder.next_event() {
                let event = event.unwrap();
                events.push((event.event.to_string(), event.data.to_string()));
            }
        }
        events
    }

    #[test]
    fn decodes_events_split_at_every_byte_boundary() {
        let input = "\u{feff}: keep-alive\r\n\r\nevent: message_start\r\ndata: {\"a\":\"é€\"}\r\n\r\n\
                     data:no-space\n\ndata: one\ndata: two\n\nid: 7\nretry: 10\n\n\
                     data: cr\r\rdata: [DONE]\n\n";
        let expected = vec![
            ("message_start".to_string(), "{\"a\":\"é€\"}".to_string()),
            (String::new(), "no-space".to_string()),
            (String::new(), "one\ntwo".to_string()),
            (String::new(), "cr".to_string()),
            (String::new(), "[DONE]".to_string()),
        ];
        for piece in 1..=input.len() {
            assert_eq!(
                decode_in_pieces(input, piece),
                expected,
                "piece size {piece}"
            );
        }
    }

    #[test]
    fn an_event_without_its_blank_line_is_not_dispatched() {
        assert_eq!(decode_in_pieces("data: a\n\ndata: b\n", 4).len(), 1);
    }

    #[test]
    fn an_event_that_never_ends_is_refused_once_too_large() {
        let mut decoder = SseDecoder::default();
        decoder.push(b"data: ");
        let line = vec![b'x'; 1 << 20];
        for _ in 0..7 {
            decoder.push(&line);
            assert_eq!(decoder.next_event(), None);
        }
        decoder.push(&line);
        decoder.push(&line);
        assert_eq!(decoder.next_event(), Some(Err(SseError::TooLarge(8 << 20))));
    }

    #[test]
    fn a_long_line_is_refused_before_it_is_stored() {
        let mut decoder = SseDecoder::with_limit(1000);
        decoder.push(b"data: ok\n\ndata: ");
        assert_eq!(
            decoder.next_event().map(|event| event.ok()),
            Some(Some(SseEvent {
                event: "",
                data: "ok"
            }))
        );
        for _ in 0..10_000 {
            decoder.push(&[b'x'; 1000]);
        }
        assert!(decoder.buf.capacity() <= 2000, "{}", decoder.buf.capacity());
        assert_eq!(decoder.next_event(), Some(Err(SseError::TooLarge(1000))));
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let mut decoder = SseDecoder::default();
        decoder.push(b"data: \xff\xfe\n\n");
        assert_eq!(decoder.next_event(), Some(Err(SseError::NotUtf8)));
        decoder.push(b"data: a\ndata: \xff\n\n");
        assert_eq!(decoder.next_event(), Some(Err(SseError::NotUtf8)));
        decoder.push(b"data: ok\n\n");
        assert_eq!(
            decoder.next_event(),
            Some(Ok(SseEvent {
                event: "",
                data: "ok"
            }))
        );
    }
}
