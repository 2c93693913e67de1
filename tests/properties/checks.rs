//! Properties of everything that reads untrusted bytes: the SSE decoder and the four wire
//! decoders (a provider), the config loader (a config file) and the `@path` parser (the
//! user's question). Shared by the proptest run in `cargo test` and the cargo-fuzz targets
//! in `fuzz/`, so both check the same things. Each check panics when a property breaks.

use std::collections::VecDeque;
use std::path::Path;

use massgen::backend::StreamEvent;
use massgen::backend::http::{CallSite, SseDecoder, WireDecoder};
use massgen::backend::wire::anthropic::AnthropicDecoder;
use massgen::backend::wire::gemini::GeminiDecoder;
use massgen::backend::wire::openai_chat::ChatDecoder;
use massgen::backend::wire::openai_responses::ResponsesDecoder;
use massgen::config::{Env, from_text};
use massgen::workspace::parse_prompt;

/// The four protocols' decoders, by name.
#[derive(Clone, Copy, Debug)]
pub enum Protocol {
    OpenAiChat,
    OpenAiResponses,
    Anthropic,
    Gemini,
}

impl Protocol {
    pub const ALL: [Protocol; 4] = [
        Protocol::OpenAiChat,
        Protocol::OpenAiResponses,
        Protocol::Anthropic,
        Protocol::Gemini,
    ];

    fn decoder(self) -> Box<dyn WireDecoder> {
        let site = CallSite::new("fuzz", "fuzz-model", "set FUZZ_API_KEY");
        match self {
            Protocol::OpenAiChat => Box::new(ChatDecoder::new(site)),
            Protocol::OpenAiResponses => Box::new(ResponsesDecoder::new(site)),
            Protocol::Anthropic => Box::new(AnthropicDecoder::new(site)),
            Protocol::Gemini => Box::new(GeminiDecoder::new(site)),
        }
    }
}

/// What one pass over a byte stream produced: `(event name, data)` pairs from the SSE layer
/// and the protocol's events (or the error it stopped at), as text so runs compare.
#[derive(Debug, PartialEq)]
pub struct Decoded {
    pub sse: Vec<(String, String)>,
    pub stream: Vec<String>,
    pub stopped: Option<String>,
}

/// Feeds `bytes` in the pieces `cuts` marks (offsets, any order, out of range ignored).
pub fn decode(protocol: Protocol, bytes: &[u8], cuts: &[usize]) -> Decoded {
    let mut offsets: Vec<usize> = cuts
        .iter()
        .copied()
        .filter(|&at| at < bytes.len())
        .collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut sse = SseDecoder::default();
    let mut decoder = protocol.decoder();
    let mut out = VecDeque::new();
    let mut decoded = Decoded {
        sse: Vec::new(),
        stream: Vec::new(),
        stopped: None,
    };
    let mut start = 0;
    for end in offsets.into_iter().chain(std::iter::once(bytes.len())) {
        sse.push(&bytes[start..end]);
        start = end;
        while let Some(event) = sse.next_event() {
            match event {
                Ok(event) => {
                    decoded
                        .sse
                        .push((event.event.to_string(), event.data.to_string()));
                    if decoded.stopped.is_none()
                        && let Err(error) = decoder.event(event, &mut out)
                    {
                        decoded.stopped = Some(error.to_string());
                    }
                }
                Err(error) => {
                    decoded.stopped.get_or_insert_with(|| error.to_string());
                    return finish(decoded, out);
                }
            }
        }
    }
    if decoded.stopped.is_none()
        && let Err(error) = decoder.end(&mut out)
    {
        decoded.stopped = Some(error.to_string());
    }
    finish(decoded, out)
}

fn finish(mut decoded: Decoded, out: VecDeque<StreamEvent>) -> Decoded {
    decoded.stream = out.into_iter().map(|event| format!("{event:?}")).collect();
    decoded
}

/// A provider's bytes never panic a decoder, and how the network cut them never changes
/// what is decoded.
pub fn check_stream(protocol: Protocol, bytes: &[u8], cuts: &[usize]) {
    let whole = decode(protocol, bytes, &[]);
    let pieces = decode(protocol, bytes, cuts);
    assert_eq!(whole, pieces, "{protocol:?}: cutting the stream changed it");
    let bytewise: Vec<usize> = (1..bytes.len().min(512)).collect();
    if bytes.len() <= 512 {
        assert_eq!(
            whole,
            decode(protocol, bytes, &bytewise),
            "{protocol:?}: feeding one byte at a time changed the stream"
        );
    }
}

/// Any config text loads or fails with an error; a located error points inside the text.
pub fn check_config(text: &str) {
    let env = Env::from_pairs([("FUZZ_KEY", "sk-fuzz-key-0123456789")]);
    if let Err(error) = from_text(text, "fuzz.yaml", &env) {
        let message = error.to_string();
        assert!(!message.is_empty(), "an empty config error");
        // YAML breaks lines at CRLF, CR and LF.
        let lines = text
            .replace("\r\n", "\n")
            .split(['\n', '\r'])
            .count()
            .max(1);
        if let Some(line) = located_line(&message) {
            assert!(
                line <= lines + 1,
                "error at line {line} of a {lines}-line config: {message}"
            );
        }
    }
}

/// The line number of a `fuzz.yaml:LINE:COL` location in an error message.
fn located_line(message: &str) -> Option<usize> {
    let rest = &message[message.find("fuzz.yaml:")? + "fuzz.yaml:".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// A question never panics the `@path` parser; without `@` it is kept as typed; every
/// attached path exists and lies under `cwd` or is absolute as typed.
pub fn check_prompt(text: &str, cwd: &Path) {
    let parsed = parse_prompt(text, cwd);
    if !text.contains('@') {
        assert_eq!(parsed.text, text, "a question without @ changed");
        assert!(parsed.paths.is_empty() && parsed.missing.is_empty());
    }
    for attached in &parsed.paths {
        assert!(
            attached.path.exists(),
            "attached a path that does not exist: {}",
            attached.path.display()
        );
    }
    for missing in &parsed.missing {
        assert!(!missing.is_empty(), "an empty missing path");
    }
}
