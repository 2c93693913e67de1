//! The vote tally pane: a bar per candidate, its count, the leader crowned, ties said (a
//! council turn's rankings in its place).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use super::wrap::truncate;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

pub struct TallyView<'a> {
    pub state: &'a UiState,
    pub theme: &'a Theme,
}

impl Widget for TallyView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        if super::rankings::shown(self.state) {
            let block = Block::new()
                .borders(Borders::ALL)
                .border_style(theme.border(false))
                .title(Span::styled(
                    super::rankings::title(self.state),
                    theme.dim(),
                ));
            let inner = block.inner(area);
            block.render(area, buf);
            let lines = super::rankings::lines(self.state, theme, usize::from(inner.width));
            Paragraph::new(lines).render(inner, buf);
            return;
        }
        let votes = &self.state.votes;
        let bars = votes.bars();
        let title = if votes.final_tally.is_some() {
            " Votes · final "
        } else if votes.is_tie() {
            " Votes · tie "
        } else {
            " Votes "
        };
        let block = Block::new()
            .borders(Borders::ALL)
            .border_style(theme.border(false))
            .title(Span::styled(title, theme.dim()));
        let inner = block.inner(area);
        block.render(area, buf);
        if bars.is_empty() {
            Paragraph::new(Line::styled("no answers yet", theme.dim())).render(inner, buf);
            return;
        }
        let name_width = bars
            .iter()
            .map(|bar| bar.candidate.as_str().chars().count())
            .max()
            .unwrap_or(0)
            .min(14);
        let most = bars.iter().map(|bar| bar.votes).max().unwrap_or(0).max(1);
        let room = usize::from(inner.width).saturating_sub(name_width + 6);
        let lines: Vec<Line<'static>> = bars
            .iter()
            .map(|bar| {
                let index = self.state.agent_index(&bar.candidate).unwrap_or(0);
                let filled = (room * bar.votes as usize) / most as usize;
                Line::from(vec![
                    Span::styled(
                        format!(
                            "{:<name_width$} ",
                            truncate(bar.candidate.as_str(), name_width)
                        ),
                        theme.agent(index),
                    ),
                    Span::styled("█".repeat(filled), theme.agent(index)),
                    Span::styled(format!(" {}", bar.votes), theme.text()),
                    Span::styled(if bar.leader { " 👑" } else { "" }, theme.winner()),
                ])
            })
            .collect();
        Paragraph::new(lines).render(inner, buf);
    }
}
