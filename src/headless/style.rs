//! ANSI colours for the plain printer, off when output is not a terminal or `NO_COLOR` is set.

/// Eight agent colours that read well on dark and light backgrounds.
const AGENT_COLORS: [u8; 8] = [33, 32, 35, 208, 36, 205, 178, 196];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    enabled: bool,
}

impl Style {
    pub fn new(enabled: bool) -> Self {
        Self { enabled }
    }

    /// Colour when `stdout` is a terminal and `NO_COLOR` is unset.
    pub fn detect() -> Self {
        use std::io::IsTerminal;
        Self::new(std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none())
    }

    fn wrap(self, code: &str, text: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn agent(self, index: usize, text: &str) -> String {
        let color = AGENT_COLORS[index % AGENT_COLORS.len()];
        self.wrap(&format!("1;38;5;{color}"), text)
    }

    pub fn dim(self, text: &str) -> String {
        self.wrap("2", text)
    }

    pub fn bold(self, text: &str) -> String {
        self.wrap("1", text)
    }

    pub fn good(self, text: &str) -> String {
        self.wrap("32", text)
    }

    pub fn bad(self, text: &str) -> String {
        self.wrap("31", text)
    }

    pub fn warn(self, text: &str) -> String {
        self.wrap("33", text)
    }
}
