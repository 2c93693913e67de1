//! Which front end a run uses: `--display` wins; else the config's `ui.display_type`; else
//! the full-screen TUI when both standard input and output are terminals, plain lines
//! otherwise (pipes, redirects, CI).

use super::args::DisplayArg;
use crate::config::DisplayKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontEnd {
    Tui,
    Plain,
    Quiet,
}

pub fn choose(flag: Option<DisplayArg>, config: Option<DisplayKind>, terminal: bool) -> FrontEnd {
    match (flag, config) {
        (Some(DisplayArg::Tui), _) => FrontEnd::Tui,
        (Some(DisplayArg::Plain), _) | (None, Some(DisplayKind::Plain)) => FrontEnd::Plain,
        (Some(DisplayArg::Quiet), _) | (None, Some(DisplayKind::Quiet)) => FrontEnd::Quiet,
        (None, Some(DisplayKind::Tui) | None) if terminal => FrontEnd::Tui,
        (None, Some(DisplayKind::Tui) | None) => FrontEnd::Plain,
    }
}

/// Standard input and output are both terminals.
pub fn on_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins_then_the_config_then_the_terminal() {
        assert_eq!(
            choose(Some(DisplayArg::Plain), Some(DisplayKind::Tui), true),
            FrontEnd::Plain
        );
        assert_eq!(
            choose(Some(DisplayArg::Tui), Some(DisplayKind::Quiet), false),
            FrontEnd::Tui
        );
        assert_eq!(
            choose(None, Some(DisplayKind::Quiet), true),
            FrontEnd::Quiet
        );
        assert_eq!(
            choose(None, Some(DisplayKind::Plain), true),
            FrontEnd::Plain
        );
        assert_eq!(choose(None, None, true), FrontEnd::Tui);
        assert_eq!(choose(None, Some(DisplayKind::Tui), true), FrontEnd::Tui);
        assert_eq!(choose(None, None, false), FrontEnd::Plain);
        assert_eq!(choose(None, Some(DisplayKind::Tui), false), FrontEnd::Plain);
    }
}
