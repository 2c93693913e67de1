//! Files attached to a question (`@photo.png`, `@report.pdf`): what kind of media each is
//! (sniffed from its bytes), its name, media type and size, and its content — inline
//! bytes or a URL. Serialized, an attachment keeps its name, media type, size and URL,
//! never its bytes, so logs and session files hold no base64 blob.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use base64::Engine as _;
use serde::{Deserialize, Serialize};

/// The kinds of media a model API may accept in a user message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MediaKind {
    Image,
    Pdf,
    Audio,
    Video,
}

impl MediaKind {
    /// For messages: "image", "PDF".
    pub fn noun(self) -> &'static str {
        match self {
            Self::Image => "image",
            Self::Pdf => "PDF",
            Self::Audio => "audio file",
            Self::Video => "video file",
        }
    }
}

/// One file attached to a user message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attachment {
    /// The file's name (`photo.png`), or the URL's last segment.
    pub name: String,
    /// `image/png`, `application/pdf`, …
    pub media_type: String,
    pub kind: MediaKind,
    /// Bytes of the file; 0 for a URL, whose size is unknown until fetched.
    pub size: u64,
    /// Set for an attachment the provider fetches itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The local file it was read from; agent CLIs are pointed to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "super::lossy_path::option::serialize")]
    pub path: Option<PathBuf>,
    /// The file's content; never serialized.
    #[serde(skip)]
    bytes: Option<Arc<[u8]>>,
}

/// How an attachment's content reaches the provider.
pub enum AttachmentContent<'a> {
    /// Inline, base64-encoded.
    Inline(&'a [u8]),
    Url(&'a str),
}

impl Attachment {
    /// An attachment holding `bytes` inline; its kind and media type come from the bytes.
    /// `None` when the bytes are no image (PNG, JPEG, GIF, WebP), PDF, WAV or MP3.
    pub fn inline(name: impl Into<String>, bytes: Vec<u8>) -> Option<Self> {
        let (kind, media_type) = sniff(&bytes)?;
        Some(Self {
            name: name.into(),
            media_type: media_type.to_string(),
            kind,
            size: bytes.len() as u64,
            url: None,
            path: None,
            bytes: Some(Arc::from(bytes)),
        })
    }

    /// An attachment the provider fetches from `url`; its media type comes from the URL's
    /// extension, `fallback` when it has none that is known.
    pub fn url(url: impl Into<String>, kind: MediaKind, fallback: &str) -> Self {
        let url = url.into();
        let path = url.split(['?', '#']).next().unwrap_or_default();
        let name = path.rsplit('/').next().unwrap_or_default().to_string();
        let media_type = media_type_of_name(&name)
            .filter(|(found, _)| *found == kind)
            .map_or(fallback, |(_, media_type)| media_type);
        Self {
            name,
            media_type: media_type.to_string(),
            kind,
            size: 0,
            url: Some(url),
            path: None,
            bytes: None,
        }
    }

    /// Reads `path` as an attachment: `Ok(None)` when it is a file of no attachable kind.
    pub fn read(path: &Path) -> std::io::Result<Option<Self>> {
        let bytes = std::fs::read(path)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |name| name.to_string_lossy().into(),
        );
        Ok(Self::inline(name, bytes).map(|attachment| Self {
            path: Some(path.to_path_buf()),
            ..attachment
        }))
    }

    /// The content as it is sent: bytes, or the URL. An attachment read back from a log
    /// (no bytes, no URL) has none.
    pub fn content(&self) -> Option<AttachmentContent<'_>> {
        match (&self.bytes, &self.url) {
            (Some(bytes), _) => Some(AttachmentContent::Inline(bytes)),
            (None, Some(url)) => Some(AttachmentContent::Url(url)),
            (None, None) => None,
        }
    }

    /// The bytes base64-encoded, for an inline attachment.
    pub fn base64(&self) -> Option<String> {
        self.bytes
            .as_deref()
            .map(|bytes| base64::engine::general_purpose::STANDARD.encode(bytes))
    }

    /// `data:<media type>;base64,…` for inline bytes, else the URL.
    pub fn data_url_or_url(&self) -> String {
        match (self.base64(), &self.url) {
            (Some(data), _) => format!("data:{};base64,{data}", self.media_type),
            (None, Some(url)) => url.clone(),
            (None, None) => String::new(),
        }
    }
}

/// The attachments that have content to send: one read back from a log holds neither
/// bytes nor a URL and is left out.
pub fn sendable(attachments: &[Attachment]) -> impl Iterator<Item = &Attachment> {
    attachments
        .iter()
        .filter(|attachment| attachment.content().is_some())
}

/// The kind and media type of `bytes` by their magic numbers.
pub fn sniff(bytes: &[u8]) -> Option<(MediaKind, &'static str)> {
    let found = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        (MediaKind::Image, "image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        (MediaKind::Image, "image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        (MediaKind::Image, "image/gif")
    } else if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        (MediaKind::Image, "image/webp")
    } else if bytes.starts_with(b"%PDF-") {
        (MediaKind::Pdf, "application/pdf")
    } else if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WAVE") {
        (MediaKind::Audio, "audio/wav")
    } else if bytes.starts_with(b"ID3")
        || (bytes.len() > 1 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0)
    {
        (MediaKind::Audio, "audio/mpeg")
    } else {
        return None;
    };
    Some(found)
}

/// The kind and media type a file name's extension suggests.
pub fn media_type_of_name(name: &str) -> Option<(MediaKind, &'static str)> {
    let extension = name.rsplit_once('.')?.1.to_ascii_lowercase();
    let found = match extension.as_str() {
        "png" => (MediaKind::Image, "image/png"),
        "jpg" | "jpeg" => (MediaKind::Image, "image/jpeg"),
        "gif" => (MediaKind::Image, "image/gif"),
        "webp" => (MediaKind::Image, "image/webp"),
        "pdf" => (MediaKind::Pdf, "application/pdf"),
        "wav" => (MediaKind::Audio, "audio/wav"),
        "mp3" => (MediaKind::Audio, "audio/mpeg"),
        "mp4" => (MediaKind::Video, "video/mp4"),
        "mov" => (MediaKind::Video, "video/quicktime"),
        "webm" => (MediaKind::Video, "video/webm"),
        "avi" => (MediaKind::Video, "video/x-msvideo"),
        _ => return None,
    };
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_come_from_magic_bytes_not_names() {
        let png = Attachment::inline("photo.pdf", b"\x89PNG\r\n\x1a\nrest".to_vec());
        let png = png.map(|attachment| (attachment.kind, attachment.media_type));
        assert_eq!(png, Some((MediaKind::Image, "image/png".to_string())));
        let pdf = Attachment::inline("report", b"%PDF-1.7\n".to_vec()).map(|a| a.kind);
        assert_eq!(pdf, Some(MediaKind::Pdf));
        assert!(Attachment::inline("notes.png", b"just text".to_vec()).is_none());
    }

    #[test]
    fn serialized_attachments_hold_no_bytes() {
        let attachment = Attachment::inline("a.gif", b"GIF89a-secret-pixels".to_vec());
        let json = serde_json::to_string(&attachment).unwrap_or_default();
        assert!(json.contains("\"media_type\":\"image/gif\""), "{json}");
        assert!(json.contains("\"size\":20"), "{json}");
        assert!(!json.contains("R0lGODlh"), "no base64 in {json}");
    }

    #[test]
    fn an_attachment_read_back_from_a_log_is_not_sent() {
        let logged = Attachment::inline("a.gif", b"GIF89a".to_vec())
            .and_then(|a| serde_json::to_string(&a).ok())
            .and_then(|json| serde_json::from_str::<Attachment>(&json).ok());
        let logged = logged.into_iter().collect::<Vec<_>>();
        assert_eq!(logged.len(), 1);
        assert_eq!(sendable(&logged).count(), 0);
    }

    #[test]
    fn inline_bytes_become_a_data_url() {
        let attachment = Attachment::inline("a.gif", b"GIF89a".to_vec());
        let url = attachment.map(|a| a.data_url_or_url());
        assert_eq!(url.as_deref(), Some("data:image/gif;base64,R0lGODlh"));
    }

    #[test]
    fn a_url_takes_its_name_and_type_from_its_path() {
        let attachment = Attachment::url(
            "https://x.test/a/cat.webp?s=1",
            MediaKind::Image,
            "image/jpeg",
        );
        assert_eq!(
            (attachment.name.as_str(), attachment.media_type.as_str()),
            ("cat.webp", "image/webp")
        );
        assert_eq!(
            attachment.data_url_or_url(),
            "https://x.test/a/cat.webp?s=1"
        );
    }
}
