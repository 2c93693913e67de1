//! The workspace browser's page: the directory tree with the chosen entry marked, then the
//! chosen file's text, scrolled on its own.

use ratatui::text::Line;

use crate::tui::files::FileListing;
use crate::tui::render::format::bytes;
use crate::tui::render::wrap::truncate;
use crate::tui::theme::Theme;

/// The page, and how far its file preview can scroll.
pub fn page(
    listing: &FileListing,
    selected: usize,
    theme: &Theme,
    width: usize,
    scroll: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let mut lines = Vec::new();
    if let Some(root) = &listing.root {
        lines.push(Line::styled(
            truncate(&root.display().to_string(), width),
            theme.dim(),
        ));
    }
    if let Some(note) = &listing.note {
        lines.push(Line::styled(note.clone(), theme.warn()));
        return (lines, 0);
    }
    let room = (height / 2).clamp(3, 15);
    let first = selected
        .saturating_sub(room / 2)
        .min(listing.entries.len().saturating_sub(room));
    for (index, entry) in listing.entries.iter().enumerate().skip(first).take(room) {
        let name = entry
            .path
            .file_name()
            .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
        let text = if entry.is_dir {
            format!("{}{name}/", "  ".repeat(entry.depth))
        } else {
            format!("{}{name}  {}", "  ".repeat(entry.depth), bytes(entry.size))
        };
        let style = if index == selected {
            theme.selected()
        } else if entry.is_dir {
            theme.accent()
        } else {
            theme.text()
        };
        lines.push(Line::styled(truncate(&text, width), style));
    }
    if listing.truncated {
        lines.push(Line::styled("… more entries not listed", theme.dim()));
    }
    if let Some(entry) = listing.entries.get(selected).filter(|entry| !entry.is_dir) {
        lines.push(Line::styled(
            truncate(&format!("── {} ", entry.path.display()), width),
            theme.accent(),
        ));
        let room = height.saturating_sub(lines.len());
        let start = scroll.min(listing.preview.len().saturating_sub(room));
        for text in listing.preview.iter().skip(start).take(room) {
            lines.push(Line::styled(truncate(text, width), theme.text()));
        }
        return (lines, listing.preview.len().saturating_sub(room));
    }
    (lines, 0)
}
