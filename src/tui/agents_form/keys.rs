//! What each key does at each step of the agents view: the list, one agent's rows, the
//! type and model choices, the text fields and the save path.

use crossterm::event::KeyCode;

use super::{
    AGENT_ROWS, AgentsAction, AgentsForm, DEFAULT_SAVE_PATH, ModelList, QUICKSTART_SAVE_PATH, Stage,
};
use crate::backend::catalog;
use crate::config::{BackendKind, draft};

impl AgentsForm {
    pub(super) fn list_key(&mut self, code: KeyCode) -> AgentsAction {
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

    pub(super) fn agent_key(&mut self, row: usize, code: KeyCode) -> AgentsAction {
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

    pub(super) fn type_key(&mut self, selected: usize, code: KeyCode) -> AgentsAction {
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

    pub(super) fn model_key(
        &mut self,
        mut typed: String,
        selected: usize,
        code: KeyCode,
    ) -> AgentsAction {
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

    pub(super) fn text_key(&mut self, row: usize, mut text: String, code: KeyCode) -> AgentsAction {
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

    pub(super) fn path_key(&mut self, mut path: String, code: KeyCode) -> AgentsAction {
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
    pub(super) fn fetch_for_current(&mut self) -> AgentsAction {
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
