//! Attachments as a person reads them, for every front end: one file as
//! `photo.png · image · 120 KiB`, several as `a.png, b.pdf · 2 files · 4.2 MiB`, folded to
//! `3 files · 4.2 MiB` where there is no room for names.

use super::attachment::Attachment;

/// `photo.png · image · 120 KiB`; a URL's size is unknown, so it reads `URL`.
pub fn describe_one(attachment: &Attachment) -> String {
    let size = if attachment.url.is_some() {
        "URL".to_string()
    } else {
        size_text(attachment.size)
    };
    format!("{} · {} · {size}", attachment.name, attachment.kind.noun())
}

/// One attachment described whole; several as their names, count and total size.
pub fn describe(attachments: &[Attachment]) -> String {
    match attachments {
        [one] => describe_one(one),
        several => {
            let names: Vec<&str> = several.iter().map(|a| a.name.as_str()).collect();
            format!("{} · {}", names.join(", "), folded(several))
        }
    }
}

/// `3 files · 4.2 MiB`: the count and the known total size, no names.
pub fn folded(attachments: &[Attachment]) -> String {
    let total: u64 = attachments.iter().map(|attachment| attachment.size).sum();
    let count = crate::text::plural(attachments.len(), "file");
    if total == 0 {
        count
    } else {
        format!("{count} · {}", size_text(total))
    }
}

/// `512 B`, `120 KiB`, `4.2 MiB`.
pub fn size_text(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = KIB * KIB;
    if bytes < KIB {
        format!("{bytes} B")
    } else if bytes < MIB {
        format!("{} KiB", bytes.div_ceil(KIB))
    } else {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::MediaKind;

    fn png(name: &str, size: usize) -> Attachment {
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        bytes.resize(size, 0);
        Attachment::inline(name, bytes).unwrap_or_else(|| unreachable!())
    }

    #[test]
    fn one_file_reads_name_kind_and_size() {
        assert_eq!(
            describe(&[png("photo.png", 120 * 1024)]),
            "photo.png · image · 120 KiB"
        );
        let url = Attachment::url("https://x.test/r.pdf", MediaKind::Pdf, "application/pdf");
        assert_eq!(describe(&[url]), "r.pdf · PDF · URL");
    }

    #[test]
    fn several_files_read_names_count_and_total_or_fold() {
        let files = [
            png("a.png", 3 * 1024 * 1024),
            png("b.png", 1024 * 1024 + 209_716),
        ];
        assert_eq!(describe(&files), "a.png, b.png · 2 files · 4.2 MiB");
        assert_eq!(folded(&files), "2 files · 4.2 MiB");
        assert_eq!(size_text(512), "512 B");
    }
}
