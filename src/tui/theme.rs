//! The palette: every colour the TUI uses, by role, for dark and light terminals; with
//! `NO_COLOR` set, roles fall back to modifiers only.

use ratatui::style::{Color, Modifier, Style};

/// Agent accents, cycled by config order (MassGen's eight).
const AGENT_COLORS: [Color; 8] = [
    Color::Rgb(0x58, 0xa6, 0xff),
    Color::Rgb(0x3f, 0xb9, 0x50),
    Color::Rgb(0xa3, 0x71, 0xf7),
    Color::Rgb(0xf0, 0x88, 0x3e),
    Color::Rgb(0x39, 0xc5, 0xcf),
    Color::Rgb(0xdb, 0x61, 0xa2),
    Color::Rgb(0xd2, 0x99, 0x22),
    Color::Rgb(0xf8, 0x51, 0x49),
];

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThemeKind {
    #[default]
    Dark,
    Light,
    /// `NO_COLOR`: bold, dim and reverse only.
    Plain,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub kind: ThemeKind,
}

impl Default for Theme {
    fn default() -> Self {
        Self::new(ThemeKind::Dark)
    }
}

impl Theme {
    pub fn new(kind: ThemeKind) -> Self {
        Self { kind }
    }

    /// Dark ↔ light; plain stays plain.
    pub fn toggled(self) -> Self {
        Self::new(match self.kind {
            ThemeKind::Dark => ThemeKind::Light,
            ThemeKind::Light => ThemeKind::Dark,
            ThemeKind::Plain => ThemeKind::Plain,
        })
    }

    /// Dark unless `NO_COLOR` is set, or light when `MASSGEN_THEME=light`.
    pub fn from_env() -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
        let light = std::env::var("MASSGEN_THEME").is_ok_and(|value| value == "light");
        Self::new(match (no_color, light) {
            (true, _) => ThemeKind::Plain,
            (false, true) => ThemeKind::Light,
            (false, false) => ThemeKind::Dark,
        })
    }

    fn color(&self, color: Color) -> Style {
        match self.kind {
            ThemeKind::Dark | ThemeKind::Light => Style::new().fg(color),
            ThemeKind::Plain => Style::new(),
        }
    }

    pub fn agent(&self, index: usize) -> Style {
        self.color(AGENT_COLORS[index % AGENT_COLORS.len()])
    }

    pub fn text(&self) -> Style {
        match self.kind {
            ThemeKind::Dark => Style::new().fg(Color::Rgb(0xe6, 0xed, 0xf3)),
            ThemeKind::Light => Style::new().fg(Color::Rgb(0x1f, 0x23, 0x28)),
            ThemeKind::Plain => Style::new(),
        }
    }

    pub fn dim(&self) -> Style {
        match self.kind {
            ThemeKind::Dark => Style::new().fg(Color::Rgb(0x8b, 0x94, 0x9e)),
            ThemeKind::Light => Style::new().fg(Color::Rgb(0x65, 0x6d, 0x76)),
            ThemeKind::Plain => Style::new().add_modifier(Modifier::DIM),
        }
    }

    pub fn good(&self) -> Style {
        self.color(Color::Rgb(0x3f, 0xb9, 0x50))
    }

    pub fn warn(&self) -> Style {
        self.color(Color::Rgb(0xd2, 0x99, 0x22))
    }

    pub fn bad(&self) -> Style {
        self.color(Color::Rgb(0xf8, 0x51, 0x49))
            .add_modifier(Modifier::BOLD)
    }

    pub fn accent(&self) -> Style {
        self.color(Color::Rgb(0x58, 0xa6, 0xff))
            .add_modifier(Modifier::BOLD)
    }

    pub fn border(&self, focused: bool) -> Style {
        if focused { self.accent() } else { self.dim() }
    }

    pub fn winner(&self) -> Style {
        self.color(Color::Rgb(0xd2, 0x99, 0x22))
            .add_modifier(Modifier::BOLD)
    }

    /// A syntax-highlighting colour (none with `NO_COLOR`).
    pub fn code(&self, red: u8, green: u8, blue: u8) -> Style {
        self.color(Color::Rgb(red, green, blue))
    }

    /// `code` in running text; bold only with `NO_COLOR`.
    pub fn inline_code(&self) -> Style {
        match self.kind {
            ThemeKind::Dark => Style::new().fg(Color::Rgb(0xff, 0xa6, 0x57)),
            ThemeKind::Light => Style::new().fg(Color::Rgb(0x95, 0x38, 0x00)),
            ThemeKind::Plain => Style::new().add_modifier(Modifier::BOLD),
        }
    }

    pub fn selected(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }
}
