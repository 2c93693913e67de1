//! The approval view: which agent asks, the tool, why it was asked (the reason, the rule,
//! the risk), the call itself (a command as `$ …`, a write's diff in diff colours, any
//! other tool's arguments as indented JSON; wrapped, scrolled when long, never cut without
//! saying so), where it stands in the queue, the time left before it is denied, and the
//! keys (or the "deny with a message" field).

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::question::tail;
use crate::protocol::{Action, Risk};
use crate::tui::render::format::duration;
use crate::tui::render::wrap::{display_width, wrap, wrap_styled};
use crate::tui::state::{PendingApproval, UiState};
use crate::tui::theme::Theme;
use crate::tui::view::View;

/// Where the `a` key saves its allow rule.
const SETTINGS_FILE: &str = ".massgen/settings.local.json";

/// The frame's footer: the keys of the view, or of the message field while it is open.
pub fn hint(view: &View) -> &'static str {
    if typing(view) {
        " Enter send the denial · Esc back "
    } else {
        " y once · s session · a always · n deny · m message · ↑↓ scroll "
    }
}

fn typing(view: &View) -> bool {
    view.modals
        .approval
        .as_ref()
        .is_some_and(|form| form.message.is_some())
}

/// The view's lines for `height` rows: the head and the keys stay, the call between them
/// scrolls (from `scroll`); and how far it can scroll.
pub fn page(
    state: &UiState,
    view: &View,
    theme: &Theme,
    width: usize,
    scroll: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let shown = view.modals.approval.as_ref().and_then(|form| {
        let pending = &state.approvals.pending;
        let at = pending
            .iter()
            .position(|pending| pending.request.request_id == form.request_id)?;
        Some((at, &pending[at], form.message.as_deref()))
    });
    let Some((at, pending, message)) = shown else {
        let gone = "This call no longer waits for an answer.";
        return (vec![Line::styled(gone, theme.dim())], 0);
    };
    let mut head = head_lines(state, pending, theme, width);
    if state.approvals.pending.len() > 1 {
        let place = format!(" · {} of {}", at + 1, state.approvals.pending.len());
        if let Some(first) = head.first_mut() {
            first.spans.push(Span::styled(place, theme.warn()));
        }
    }
    head.push(Line::default());
    let secs = view
        .clocks
        .approval_secs_left
        .unwrap_or(pending.request.timeout_secs);
    let foot = foot_lines(secs, message, theme, width);
    let body = call_lines(pending, theme, width);
    let room = height.saturating_sub(head.len() + foot.len()).max(2);
    let (body, furthest) = scrolled(body, scroll, room, theme, width);
    let mut lines = head;
    lines.extend(body);
    lines.extend(foot);
    lines.truncate(height);
    (lines, furthest)
}

/// The agent (named and coloured as its card is) and what it wants, the tool, the reason,
/// the rule and the risk.
fn head_lines(
    state: &UiState,
    pending: &PendingApproval,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let request = &pending.request;
    let colour = state
        .agent_index(&request.agent)
        .map_or_else(|| theme.accent(), |index| theme.agent(index));
    let wants = match request.action {
        Action::Command => " wants to run a command",
        Action::ReadFile => " wants to read a file",
        Action::WriteFile => " wants to write a file",
        Action::ReadUrl => " wants to fetch a URL",
        Action::Mcp => " wants to call a tool",
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(
            request.agent.to_string(),
            colour.add_modifier(Modifier::BOLD),
        ),
        Span::styled(wants, theme.text()),
    ])];
    let labelled = |label: &str, text: &str, style: Style| {
        wrap_styled(
            &[
                (format!("{label} "), theme.dim()),
                (text.to_string(), style),
            ],
            width,
        )
    };
    lines.extend(labelled("Tool:", &request.tool, theme.text()));
    lines.extend(labelled("Why: ", &request.reason, theme.text()));
    let risk_style = match request.risk {
        Risk::Low => theme.good(),
        Risk::Medium => theme.warn(),
        Risk::High => theme.bad().add_modifier(Modifier::BOLD),
    };
    let mut risk = vec![
        ("Risk: ".to_string(), theme.dim()),
        (request.risk.as_str().to_string(), risk_style),
    ];
    if let Some(rule) = &request.rule {
        risk.push(("  ·  asked by the rule ".to_string(), theme.dim()));
        risk.push((rule.clone(), theme.accent()));
    }
    lines.extend(wrap_styled(&risk, width));
    if let Some(file) = &request.answer_file {
        let file = file.display().to_string();
        lines.extend(labelled("Or:  ", &format!("answer in {file}"), theme.dim()));
    }
    lines
}

/// The call: `$ command` as the agent wrote it for a command (and what the rules checked,
/// when that reads differently), the diff for a write that has one, else what it
/// acts on and its arguments as indented JSON. Every line wraps; none is cut.
fn call_lines(pending: &PendingApproval, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let request = &pending.request;
    let plain = |text: &str, style: Style| -> Vec<Line<'static>> {
        hanging(text, width)
            .into_iter()
            .map(|line| Line::styled(line, style))
            .collect()
    };
    match (request.action, &request.diff) {
        (Action::Command, _) => {
            let written = request
                .preview
                .strip_prefix("$ ")
                .unwrap_or(&request.preview);
            let command = if written.trim().is_empty() {
                request.target.as_str()
            } else {
                written
            };
            let shown: Vec<String> = command
                .lines()
                .enumerate()
                .map(|(at, line)| format!("{}{line}", if at == 0 { "$ " } else { "  " }))
                .collect();
            let mut lines = plain(&shown.join("\n"), theme.text().add_modifier(Modifier::BOLD));
            // What the rules saw (`\c\u\r\l x` is `curl x`; one part of a chain decided).
            if !request.target.is_empty() && request.target != command.trim() {
                lines.extend(plain(
                    &format!("checked as: {}", request.target),
                    theme.dim(),
                ));
            }
            lines
        }
        (_, Some(diff)) => {
            let mut lines = plain(&request.target, theme.text().add_modifier(Modifier::BOLD));
            for line in diff.lines() {
                lines.extend(plain(line, diff_style(line, theme)));
            }
            lines
        }
        (_, None) => {
            let mut lines = plain(&request.target, theme.text().add_modifier(Modifier::BOLD));
            let arguments =
                indented_json(&request.arguments).unwrap_or_else(|| request.arguments.clone());
            lines.extend(plain(&arguments, theme.code(180, 200, 230)));
            lines
        }
    }
}

/// Valid JSON `text` laid out one member per line, indented by two spaces, its members in
/// the order the model wrote them; `None` when it is not JSON.
fn indented_json(text: &str) -> Option<String> {
    serde_json::from_str::<serde_json::Value>(text).ok()?;
    let mut out = String::new();
    let mut depth = 0usize;
    let mut chars = text.trim().chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    while let Some(ch) = chars.next() {
        match ch {
            '"' => {
                out.push('"');
                while let Some(inner) = chars.next() {
                    out.push(inner);
                    match inner {
                        '\\' => out.extend(chars.next()),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '{' | '[' => {
                out.push(ch);
                while chars.next_if(|next| next.is_whitespace()).is_some() {}
                if let Some(close) = chars.next_if(|next| matches!(next, '}' | ']')) {
                    out.push(close);
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(ch);
            }
            ',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            ch if ch.is_whitespace() => {}
            ch => out.push(ch),
        }
    }
    Some(out)
}

fn diff_style(line: &str, theme: &Theme) -> Style {
    if line.starts_with("+++") || line.starts_with("---") {
        theme.dim().add_modifier(Modifier::BOLD)
    } else if line.starts_with('+') {
        theme.good()
    } else if line.starts_with('-') {
        theme.bad()
    } else if line.starts_with("@@") {
        theme.accent()
    } else {
        theme.text()
    }
}

/// Each line of `text` wrapped to `width`, its continuations indented by two columns.
fn hanging(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for source in text.split('\n') {
        let mut wrapped = wrap(source, width).into_iter();
        let Some(first) = wrapped.next() else {
            continue;
        };
        let rest: String = wrapped.collect::<Vec<_>>().join(" ");
        lines.push(first);
        if !rest.is_empty() {
            lines.extend(
                wrap(&rest, width.saturating_sub(2).max(1))
                    .into_iter()
                    .map(|line| format!("  {line}")),
            );
        }
    }
    lines
}

/// The call's lines that fit `room` from `scroll` on; when they do not all fit, the last
/// row says which lines show and how to scroll.
fn scrolled(
    mut body: Vec<Line<'static>>,
    scroll: usize,
    room: usize,
    theme: &Theme,
    width: usize,
) -> (Vec<Line<'static>>, usize) {
    if body.len() <= room {
        return (body, 0);
    }
    let total = body.len();
    let shown = room - 1;
    let furthest = total - shown;
    let start = scroll.min(furthest);
    body.truncate(start + shown);
    body.drain(..start);
    let where_ = format!(
        "lines {}–{} of {total} · ↑↓ PgUp PgDn scroll",
        start + 1,
        start + shown
    );
    let mark = if display_width(&where_) + 2 <= width {
        format!("┄ {where_}")
    } else {
        where_
    };
    body.push(Line::styled(mark, theme.warn()));
    (body, furthest)
}

/// The time left, and the keys or the message field.
fn foot_lines(secs: u64, message: Option<&str>, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut lines = vec![
        Line::default(),
        Line::styled(
            format!("Denied in {} unless you answer", duration(secs)),
            theme.warn(),
        ),
    ];
    if let Some(message) = message {
        let label = "Message to the agent: ";
        let room = width.saturating_sub(display_width(label) + 1);
        lines.push(Line::from(vec![
            Span::styled(label, theme.accent()),
            Span::styled(
                tail(message, room),
                theme.text().add_modifier(Modifier::UNDERLINED),
            ),
            Span::styled("▏", theme.accent()),
        ]));
        lines.extend(wrap_styled(
            &[(
                "Enter denies the call with this message · Esc goes back".to_string(),
                theme.dim(),
            )],
            width,
        ));
        return lines;
    }
    let key = |key: &str| (key.to_string(), theme.accent().add_modifier(Modifier::BOLD));
    let what = |what: &str| (what.to_string(), theme.text());
    let rows = [
        vec![
            key("y/Enter"),
            what(" approve once  ·  "),
            key("s"),
            what(" approve for this session"),
        ],
        vec![
            key("a"),
            what(&format!(
                " always allow in this project (saved to {SETTINGS_FILE})"
            )),
        ],
        vec![
            key("n/Esc"),
            what(" deny  ·  "),
            key("m"),
            what(" deny with a message  ·  "),
            key("↑↓ PgUp PgDn"),
            what(" scroll"),
        ],
    ];
    for row in rows {
        lines.extend(wrap_styled(&row, width));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_indented_in_the_order_written_and_strings_are_kept_as_they_are() {
        let text = r#"{"z": 1, "a": {"s": "x, {y}: \"q\"", "e": [], "l": [true, null]}}"#;
        assert_eq!(
            indented_json(text).unwrap(),
            "{\n  \"z\": 1,\n  \"a\": {\n    \"s\": \"x, {y}: \\\"q\\\"\",\n    \"e\": [],\n    \
             \"l\": [\n      true,\n      null\n    ]\n  }\n}"
        );
        assert_eq!(indented_json("not json"), None);
    }

    #[test]
    fn continuation_lines_hang_two_columns_in() {
        assert_eq!(
            hanging("$ echo one two three", 12),
            ["$ echo one", "  two three"]
        );
    }

    #[test]
    fn diff_lines_take_the_diff_colours() {
        let theme = Theme::default();
        assert_eq!(diff_style("+added", &theme), theme.good());
        assert_eq!(diff_style("-removed", &theme), theme.bad());
        assert_eq!(diff_style("@@ -1 +1 @@", &theme), theme.accent());
        assert_eq!(
            diff_style("+++ b/x", &theme),
            theme.dim().add_modifier(Modifier::BOLD)
        );
        assert_eq!(diff_style(" kept", &theme), theme.text());
    }
}
