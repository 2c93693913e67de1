//! Which attachments each model API carries, and how large: MassGen's
//! `media_max_file_size_mb` (64 MB) for every file, then each provider's documented limit
//! (Anthropic 5 MB per image, OpenAI 20 MB per image, PDFs 32 MB, Gemini 20 MB inline per
//! request). Checked before any request is sent, so the user learns which file is refused.

use super::provider_options::Api;
use crate::protocol::{Attachment, MediaKind};

const MB: u64 = 1024 * 1024;

/// MassGen's default `media_max_file_size_mb`.
pub const MEDIA_MAX_FILE_SIZE: u64 = 64 * MB;

/// Gemini's limit on a whole request's inline data.
const GEMINI_INLINE_TOTAL: u64 = 20 * MB;

/// Why `attachments` cannot go to `api`, naming the file, its size and the limit; `None`
/// when all of them can.
pub fn refusal(attachments: &[Attachment], api: Api) -> Option<String> {
    for attachment in attachments {
        if let Some(why) = refusal_of(attachment, api) {
            return Some(why);
        }
    }
    let inline_total: u64 = attachments
        .iter()
        .filter(|attachment| attachment.url.is_none())
        .map(|attachment| attachment.size)
        .sum();
    (api == Api::Gemini && inline_total > GEMINI_INLINE_TOTAL).then(|| {
        format!(
            "the attached files add up to {} and {} takes up to {} of inline data per \
             request — attach fewer or smaller files",
            megabytes(inline_total),
            api.name(),
            megabytes(GEMINI_INLINE_TOTAL)
        )
    })
}

fn refusal_of(attachment: &Attachment, api: Api) -> Option<String> {
    let name = &attachment.name;
    let noun = attachment.kind.noun();
    let Some(limit) = provider_limit(attachment.kind, api) else {
        return Some(format!(
            "{name}: {} does not take {noun}s in a message (massgen sends images and PDFs \
             to every API, WAV and MP3 audio to the Chat Completions API and Gemini)",
            api.name()
        ));
    };
    if attachment.url.is_some() && !takes_url(attachment.kind, api) {
        return Some(format!(
            "{name}: {} takes {noun}s only as the file's bytes, not as a URL — download it \
             and give its local path",
            api.name()
        ));
    }
    if attachment.size > MEDIA_MAX_FILE_SIZE {
        return Some(format!(
            "{name} is {}, over MassGen's media_max_file_size_mb of {} — attach a smaller file",
            megabytes(attachment.size),
            megabytes(MEDIA_MAX_FILE_SIZE)
        ));
    }
    (attachment.size > limit).then(|| {
        format!(
            "{name} is {} and {} takes {noun}s up to {} — attach a smaller file",
            megabytes(attachment.size),
            api.name(),
            megabytes(limit)
        )
    })
}

/// The largest file of `kind` the API documents; `None` when it takes no such file.
fn provider_limit(kind: MediaKind, api: Api) -> Option<u64> {
    match (api, kind) {
        (Api::Anthropic, MediaKind::Image) => Some(5 * MB),
        (Api::Chat | Api::Responses, MediaKind::Image) => Some(20 * MB),
        (Api::Anthropic | Api::Chat | Api::Responses, MediaKind::Pdf) => Some(32 * MB),
        (Api::Chat, MediaKind::Audio) => Some(MEDIA_MAX_FILE_SIZE),
        (Api::Gemini, MediaKind::Image | MediaKind::Pdf | MediaKind::Audio) => {
            Some(GEMINI_INLINE_TOTAL)
        }
        (Api::Anthropic | Api::Responses, MediaKind::Audio) | (_, MediaKind::Video) => None,
    }
}

/// Whether the API fetches a file of `kind` from a URL itself.
fn takes_url(kind: MediaKind, api: Api) -> bool {
    match (api, kind) {
        (Api::Chat, MediaKind::Image) => true,
        (Api::Chat, _) => false,
        (Api::Responses | Api::Anthropic | Api::Gemini, _) => true,
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / MB as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_of(size: usize) -> Attachment {
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        bytes.resize(size, 0);
        Attachment::inline("big.png", bytes).unwrap_or_else(|| unreachable!())
    }

    #[test]
    fn an_image_over_anthropics_limit_is_refused_naming_file_size_and_limit() {
        let why = refusal(&[png_of(6 * MB as usize)], Api::Anthropic).unwrap_or_default();
        assert!(why.contains("big.png is 6.0 MB"), "{why}");
        assert!(why.contains("up to 5.0 MB"), "{why}");
        assert_eq!(refusal(&[png_of(6 * MB as usize)], Api::Chat), None);
    }

    #[test]
    fn gemini_counts_the_whole_requests_inline_data() {
        let files = [png_of(11 * MB as usize), png_of(11 * MB as usize)];
        let why = refusal(&files, Api::Gemini).unwrap_or_default();
        assert!(why.contains("add up to 22.0 MB"), "{why}");
    }

    #[test]
    fn an_api_without_a_shape_for_the_kind_says_so() {
        let video = Attachment::url("https://x.test/a.mp4", MediaKind::Video, "video/mp4");
        let why = refusal(&[video], Api::Anthropic).unwrap_or_default();
        assert!(why.contains("does not take video files"), "{why}");
        let audio = Attachment::url("https://x.test/a.wav", MediaKind::Audio, "audio/wav");
        let why = refusal(&[audio], Api::Chat).unwrap_or_default();
        assert!(why.contains("not as a URL"), "{why}");
    }
}
