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
        let mut comments = vec![if self.quickstart {
            "Written by `massgen --quickstart`.".to_string()
        } else {
            "Written by massgen's agents view (/agents): each agent's id, type, model, system \
             message and base URL;\nother settings of the config the run started from are \
             not included."
                .to_string()
        }];
        comments
            .push("API keys are read from the environment or .env, never from this file.".into());
        draft::to_yaml(&self.drafts, &comments)
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
}

mod keys;
