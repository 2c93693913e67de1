//! A fixed-width text grid with `+---+` rules and `|` borders: an event column, then one
//! column per agent; cells wrap within their width, measured in terminal columns.

use crate::text::{pad_to, wrap};

pub struct Grid {
    /// Content widths: the event column first, then one per agent.
    widths: Vec<usize>,
}

impl Grid {
    pub fn new(event_width: usize, agents: usize, agent_width: usize) -> Self {
        let mut widths = vec![event_width];
        widths.extend(std::iter::repeat_n(agent_width, agents.max(1)));
        Self { widths }
    }

    /// Columns of one whole line of the grid, borders included.
    pub fn total_width(&self) -> usize {
        self.widths.iter().map(|width| width + 3).sum::<usize>() + 1
    }

    /// `+-------+-----…-+`
    pub fn rule(&self) -> String {
        let mut line = String::from("+");
        for width in &self.widths {
            line.push_str(&"-".repeat(width + 2));
            line.push('+');
        }
        line
    }

    /// A row with `label` in the event column and `cells[i]` (lines, wrapped here) under
    /// agent `i`; as tall as its tallest cell.
    pub fn row(&self, label: &str, cells: &[Vec<String>]) -> Vec<String> {
        let mut columns = vec![wrapped(&[label.to_string()], self.widths[0])];
        for (index, width) in self.widths.iter().enumerate().skip(1) {
            let lines = cells.get(index - 1).map_or(&[][..], Vec::as_slice);
            columns.push(wrapped(lines, *width));
        }
        self.join(&columns, &self.widths)
    }

    /// A row whose one cell spans every agent column.
    pub fn spanning_row(&self, label: &str, lines: &[String]) -> Vec<String> {
        let merged = self.total_width() - self.widths[0] - 7;
        let widths = [self.widths[0], merged];
        let columns = [
            wrapped(&[label.to_string()], widths[0]),
            wrapped(lines, merged),
        ];
        self.join(&columns, &widths)
    }

    fn join(&self, columns: &[Vec<String>], widths: &[usize]) -> Vec<String> {
        let height = columns.iter().map(Vec::len).max().unwrap_or(0).max(1);
        (0..height)
            .map(|at| {
                let mut line = String::from("|");
                for (column, width) in columns.iter().zip(widths) {
                    let text = column.get(at).map_or("", String::as_str);
                    line.push(' ');
                    line.push_str(&pad_to(text, *width));
                    line.push_str(" |");
                }
                line
            })
            .collect()
    }
}

fn wrapped(lines: &[String], width: usize) -> Vec<String> {
    lines.iter().flat_map(|line| wrap(line, width)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::display_width;

    #[test]
    fn every_line_is_as_wide_as_the_rule_even_with_emoji_and_wrapping() {
        let grid = Grid::new(5, 2, 10);
        let mut lines = vec![grid.rule()];
        lines.extend(grid.row(
            "E1",
            &[
                vec!["✨ NEW ANSWER (agent1.1)".into()],
                vec!["日本語のテキスト".into()],
            ],
        ));
        lines.extend(grid.spanning_row("USER", &["a question that is long enough".into()]));
        let width = grid.total_width();
        assert_eq!(display_width(&lines[0]), width);
        for line in &lines {
            assert_eq!(display_width(line), width, "{line}");
        }
        assert_eq!(lines[1], "| E1    | ✨ NEW     | 日本語のテ |");
        assert_eq!(lines.len(), 1 + 3 + 2);
    }
}
