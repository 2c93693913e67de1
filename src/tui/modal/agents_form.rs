//! The agents view's form (`/agents`, `--quickstart`): the agents being edited, which
//! step the user is on (the list, one agent, a choice list, a text field, the save path),
//! the model lists fetched so far, and what each key does to them. No IO here: a key
//! answers with an [`AgentsAction`] the app turns into effects.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::backend::catalog;
use crate::config::{AgentDraft, BackendKind, draft};

/// Where a save goes unless the user types another path.
pub const DEFAULT_SAVE_PATH: &str = ".massgen/agents.yaml";
/// Where `--quickstart` saves: the config `massgen` finds by itself next time.
pub const QUICKSTART_SAVE_PATH: &str = ".massgen/config.yaml";

/// The rows of one agent.
pub const AGENT_ROWS: [&str; 5] = ["id", "backend type", "model", "system message", "base URL"];

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    List,
    /// One agent's rows; `row` indexes [`AGENT_ROWS`].
    Agent {
        row: usize,
    },
    ChooseType {
        selected: usize,
    },
    /// The model list, filtered by what is typed; Enter takes the highlighted model, or
    /// what is typed when nothing matches.
    ChooseModel {
        typed: String,
        selected: usize,
    },
    /// Editing the text of `row` (the id, the system message or the base URL).
    Text {
        row: usize,
        text: String,
    },
    SavePath {
        path: String,
    },
    /// `path` exists: y replaces it.
    Overwrite {
        path: String,
    },
    /// Esc with changes not applied: Esc again drops them.
    Discard,
}

/// A provider's model list as far as it is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelList {
    Loading,
    Listed(Vec<String>),
    /// No list (why): the user types the model's name.
    Unavailable(String),
}

/// What the app must do after a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentsAction {
    None,
    /// Fetch `kind`'s model list (at `base_url`, else its default).
    Fetch {
        kind: BackendKind,
        base_url: Option<String>,
    },
    /// Write the config to `path` (replacing it only when `overwrite`).
    Save {
        path: String,
        overwrite: bool,
    },
    /// Run the next turns with these agents.
    Apply,
    /// Close without applying.
    Close,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentsForm {
    pub drafts: Vec<AgentDraft>,
    pub selected: usize,
    pub stage: Stage,
    /// Opened by `--quickstart`: saving also applies and closes.
    pub quickstart: bool,
    /// Something changed since it opened.
    pub changed: bool,
    pub models: Vec<(BackendKind, ModelList)>,
    /// A line about the last thing done (saved, refused, …).
    pub note: Option<String>,
    /// Shown above the list (quickstart: which keys were found).
    pub intro: Option<String>,
}

impl AgentsForm {
    pub fn new(drafts: Vec<AgentDraft>) -> Self {
        Self {
            drafts,
            selected: 0,
            stage: Stage::List,
            quickstart: false,
            changed: false,
            models: Vec::new(),
            note: None,
            intro: None,
        }
    }

    pub fn current(&self) -> Option<&AgentDraft> {
        self.drafts.get(self.selected)
    }

    pub fn models_of(&self, kind: BackendKind) -> Option<&ModelList> {
        self.models
            .iter()
            .find(|(known, _)| *known == kind)
            .map(|(_, list)| list)
    }

    /// The models the model choice offers for `kind`, filtered by `typed`.
    pub fn model_choices(&self, kind: BackendKind, typed: &str) -> Vec<String> {
        let all = match self.models_of(kind) {
            Some(ModelList::Listed(models)) => models.clone(),
            Some(ModelList::Unavailable(_)) | None => catalog::fallback_models(kind),
            Some(ModelList::Loading) => Vec::new(),
        };
        let typed = typed.trim().to_lowercase();
        all.into_iter()
            .filter(|model| model.to_lowercase().contains(&typed))
            .collect()
    }

    /// A listing arrived for `kind`.
    pub fn listed(&mut self, kind: BackendKind, result: Result<Vec<String>, String>) {
        let list = match result {
            Ok(models) if !models.is_empty() => ModelList::Listed(models),
            Ok(_) => ModelList::Unavailable("the provider listed no models".into()),
            Err(why) => ModelList::Unavailable(why),
        };
        self.models.retain(|(known, _)| *known != kind);
        self.models.push((kind, list));
    }

    /// The save to `path` was refused because the file exists.
    pub fn save_exists(&mut self, path: String) {
        self.stage = Stage::Overwrite { path };
    }

    /// The config was written to `path`, or not (why).
    pub fn saved(&mut self, path: &str, result: Result<(), String>) {
        self.stage = Stage::List;
        self.note = Some(match result {
            Ok(()) => format!("saved {path} (massgen --config {path} runs it)"),
            Err(why) => format!("not saved: {why}"),
        });
    }

    /// The YAML of the agents as they stand.
    pub fn yaml(&self) -> String {
        let origin = if self.quickstart {
            "Written by `massgen --quickstart`."
        } else {
            "Written by massgen's agents view (/agents)."
        };
        draft::to_yaml(
            &self.drafts,
            &[
                origin.to_string(),
                "API keys are read from the environment or .env, never from this file.".into(),
            ],
        )
    }

    pub fn key(&mut self, key: KeyEvent) -> AgentsAction {
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return AgentsAction::None;
        }
        self.note = None;
        match std::mem::replace(&mut self.stage, Stage::List) {
            Stage::List => self.list_key(key.code),
            Stage::Agent { row } => self.agent_key(row, key.code),
            Stage::ChooseType { selected } => self.type_key(selected, key.code),
            Stage::ChooseModel { typed, selected } => self.model_key(typed, selected, key.code),
            Stage::Text { row, text } => self.text_key(row, text, key.code),
            Stage::SavePath { path } => self.path_key(path, key.code),
            Stage::Overwrite { path } => match key.code {
                KeyCode::Char('y' | 'Y') => AgentsAction::Save {
                    path,
                    overwrite: true,
                },
                _ => {
                    self.stage = Stage::SavePath { path };
                    AgentsAction::None
                }
            },
            Stage::Discard => match key.code {
                KeyCode::Esc => AgentsAction::Close,
                KeyCode::Char('u') => AgentsAction::Apply,
                _ => AgentsAction::None,
            },
        }
    }

    /// Pasted text goes into the open text field, if any.
    pub fn paste(&mut self, pasted: &str) {
        let line = pasted.replace(['\r', '\n'], " ");
        match &mut self.stage {
            Stage::Text { text, .. }
            | Stage::SavePath { path: text }
            | Stage::ChooseModel { typed: text, .. } => text.push_str(&line),
            Stage::List
            | Stage::Agent { .. }
            | Stage::ChooseType { .. }
            | Stage::Overwrite { .. }
            | Stage::Discard => {}
        }
    }

    fn list_key(&mut self, code: KeyCode) -> AgentsAction {
        let count = self.drafts.len();
        match code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(count.saturating_sub(1));
            }
            KeyCode::Char('a') => {
                let kind = self.current().map_or(BackendKind::Scripted, |d| d.kind);
                let added = catalog::new_draft(kind, &self.drafts);
                self.note = Some(format!("added {}: Enter edits it", added.id));
                self.drafts.push(added);
                self.selected = self.drafts.len() - 1;
                self.changed = true;
            }
            KeyCode::Char('d') | KeyCode::Delete if count <= 1 => {
                self.note = Some("a run needs an agent: add another one first".into());
            }
            KeyCode::Char('d') | KeyCode::Delete => {
                let removed = self.drafts.remove(self.selected);
                self.note = Some(format!("removed {}", removed.id));
                self.selected = self.selected.min(self.drafts.len() - 1);
                self.changed = true;
            }
            KeyCode::Enter | KeyCode::Right if count > 0 => {
                self.stage = Stage::Agent { row: 1 };
                return self.fetch_for_current();
            }
            KeyCode::Char('s') => {
                let path = if self.quickstart {
                    QUICKSTART_SAVE_PATH
                } else {
                    DEFAULT_SAVE_PATH
                };
                self.stage = Stage::SavePath { path: path.into() };
            }
            KeyCode::Char('u') => return AgentsAction::Apply,
            KeyCode::Esc | KeyCode::Char('q') if self.changed => self.stage = Stage::Discard,
            KeyCode::Esc | KeyCode::Char('q') => return AgentsAction::Close,
            _ => {}
        }
        AgentsAction::None
    }

    fn agent_key(&mut self, row: usize, code: KeyCode) -> AgentsAction {
        let Some(current) = self.current().cloned() else {
            return AgentsAction::None;
        };
        self.stage = Stage::Agent { row };
        match code {
            KeyCode::Up => {
                self.stage = Stage::Agent {
                    row: row.saturating_sub(1),
                }
            }
            KeyCode::Down | KeyCode::Tab => {
                self.stage = Stage::Agent {
                    row: (row + 1).min(AGENT_ROWS.len() - 1),
                };
            }
            KeyCode::Esc | KeyCode::Left => self.stage = Stage::List,
            KeyCode::Enter => {
                self.stage = match row {
                    0 => Stage::Text {
                        row,
                        text: current.id,
                    },
                    1 => Stage::ChooseType {
                        selected: catalog::OFFERED
                            .iter()
                            .position(|kind| *kind == current.kind)
                            .unwrap_or(0),
                    },
                    2 => {
                        let choices = self.model_choices(current.kind, "");
                        Stage::ChooseModel {
                            typed: String::new(),
                            selected: choices
                                .iter()
                                .position(|model| *model == current.model)
                                .unwrap_or(0),
                        }
                    }
                    3 => Stage::Text {
                        row,
                        text: current.system_message.unwrap_or_default(),
                    },
                    _ => Stage::Text {
                        row,
                        text: current.base_url.unwrap_or_default(),
                    },
                };
                if row == 2 {
                    return self.fetch_for_current();
                }
            }
            _ => {}
        }
        AgentsAction::None
    }

    fn type_key(&mut self, selected: usize, code: KeyCode) -> AgentsAction {
        let last = catalog::OFFERED.len() - 1;
        match code {
            KeyCode::Up => {
                self.stage = Stage::ChooseType {
                    selected: selected.saturating_sub(1),
                };
            }
            KeyCode::Down => {
                self.stage = Stage::ChooseType {
                    selected: (selected + 1).min(last),
                };
            }
            KeyCode::Enter => {
                let kind = catalog::OFFERED[selected.min(last)];
                self.stage = Stage::Agent { row: 2 };
                if let Some(current) = self.drafts.get_mut(self.selected)
                    && current.kind != kind
                {
                    current.kind = kind;
                    catalog::default_model(kind).clone_into(&mut current.model);
                    current.base_url = catalog::known_base_url(kind).map(str::to_string);
                    self.changed = true;
                    return self.fetch_for_current();
                }
            }
            KeyCode::Esc => self.stage = Stage::Agent { row: 1 },
            _ => self.stage = Stage::ChooseType { selected },
        }
        AgentsAction::None
    }

    fn model_key(&mut self, mut typed: String, selected: usize, code: KeyCode) -> AgentsAction {
        let Some(kind) = self.current().map(|d| d.kind) else {
            return AgentsAction::None;
        };
        let choices = self.model_choices(kind, &typed);
        let mut selected = selected;
        match code {
            KeyCode::Up => selected = selected.saturating_sub(1),
            KeyCode::Down => selected = (selected + 1).min(choices.len().saturating_sub(1)),
            KeyCode::Char(ch) => {
                typed.push(ch);
                selected = 0;
            }
            KeyCode::Backspace => {
                typed.pop();
                selected = 0;
            }
            KeyCode::Esc => {
                self.stage = Stage::Agent { row: 2 };
                return AgentsAction::None;
            }
            KeyCode::Enter => {
                let chosen = choices
                    .get(selected)
                    .cloned()
                    .or_else(|| Some(typed.trim().to_string()).filter(|t| !t.is_empty()));
                if let Some(model) = chosen
                    && let Some(current) = self.drafts.get_mut(self.selected)
                {
                    self.changed |= current.model != model;
                    current.model = model;
                    self.stage = Stage::Agent { row: 3 };
                    return AgentsAction::None;
                }
            }
            _ => {}
        }
        self.stage = Stage::ChooseModel { typed, selected };
        AgentsAction::None
    }

    fn text_key(&mut self, row: usize, mut text: String, code: KeyCode) -> AgentsAction {
        match code {
            KeyCode::Char(ch) => text.push(ch),
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Esc => {
                self.stage = Stage::Agent { row };
                return AgentsAction::None;
            }
            KeyCode::Enter => {
                self.stage = Stage::Agent { row };
                self.commit_text(row, text.trim());
                return AgentsAction::None;
            }
            _ => {}
        }
        self.stage = Stage::Text { row, text };
        AgentsAction::None
    }

    fn commit_text(&mut self, row: usize, text: &str) {
        let selected = self.selected;
        let others: Vec<&str> = (self.drafts.iter().enumerate())
            .filter(|(index, _)| *index != selected)
            .map(|(_, d)| d.id.as_str())
            .collect();
        let id = (row == 0).then(|| draft::unique_id(text, &others));
        let Some(current) = self.drafts.get_mut(selected) else {
            return;
        };
        if let Some(id) = id {
            if id != text {
                self.note = Some(format!("id `{text}` became `{id}` (ids are unique names)"));
            }
            self.changed |= current.id != id;
            current.id = id;
        } else if row == 3 {
            let message = Some(text.to_string()).filter(|t| !t.is_empty());
            self.changed |= current.system_message != message;
            current.system_message = message;
        } else {
            let url = Some(text.trim_end_matches('/').to_string()).filter(|t| !t.is_empty());
            if current.base_url != url {
                self.changed = true;
                current.base_url = url;
                // The list came from the old address.
                let kind = current.kind;
                self.models.retain(|(known, _)| *known != kind);
            }
        }
    }

    fn path_key(&mut self, mut path: String, code: KeyCode) -> AgentsAction {
        match code {
            KeyCode::Char(ch) => path.push(ch),
            KeyCode::Backspace => {
                path.pop();
            }
            KeyCode::Esc => return AgentsAction::None,
            KeyCode::Enter if !path.trim().is_empty() => {
                return AgentsAction::Save {
                    path: path.trim().to_string(),
                    overwrite: false,
                };
            }
            _ => {}
        }
        self.stage = Stage::SavePath { path };
        AgentsAction::None
    }

    /// The fetch the current agent's model list needs, if it was not asked for yet.
    fn fetch_for_current(&mut self) -> AgentsAction {
        let Some(current) = self.current() else {
            return AgentsAction::None;
        };
        let (kind, base_url) = (current.kind, current.base_url.clone());
        if self.models_of(kind).is_some() {
            return AgentsAction::None;
        }
        if crate::backend::provider::provider(kind).is_none() {
            self.listed(kind, Err(format!("`{kind}` has no model list")));
            return AgentsAction::None;
        }
        self.models.push((kind, ModelList::Loading));
        AgentsAction::Fetch { kind, base_url }
    }
}
