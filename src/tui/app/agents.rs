//! The agents view in the app: `/agents` opens it between turns (and `--quickstart` at
//! the start), its keys become effects (fetch a model list, save the config, send
//! `Op::ReplaceAgents`), and the answers to those come back here.

use crossterm::event::KeyEvent;

use super::roster::Roster;
use super::{App, Effect};
use crate::config::{AgentDraft, BackendKind};
use crate::protocol::{AgentInfo, Op};
#[cfg(test)]
use crate::tui::agents_form::Stage;
use crate::tui::agents_form::{AgentsAction, AgentsForm};
use crate::tui::agents_io::SaveOutcome;
use crate::tui::view::ModalKind;

/// The notice while the runtime takes the agents applied.
const APPLYING: &str = "applying the agents…";

impl App {
    /// The agents the run has now, as the agents view starts from them.
    pub fn with_agent_drafts(mut self, drafts: Vec<AgentDraft>) -> Self {
        self.roster = Roster::new(drafts);
        self
    }

    /// `/agents`: the agents view, between turns only.
    pub(super) fn open_agents(&mut self) {
        if self.is_replay() {
            self.view.notice = Some("this is a replay: its agents are as recorded".into());
            return;
        }
        if self.state.is_running() {
            self.view.notice =
                Some("a turn is running: /agents changes the agents once it ends".into());
            return;
        }
        let drafts = if self.roster.drafts().is_empty() {
            self.state
                .agents
                .iter()
                .map(|card| draft_of(&card.info))
                .collect()
        } else {
            self.roster.drafts().to_vec()
        };
        self.view.modals.agents = Some(AgentsForm::new(drafts));
        self.open(ModalKind::Agents);
    }

    /// `--quickstart`: the agents view over `drafts` (made from the keys found, said in
    /// `intro`); saving also starts the session with them.
    pub fn open_quickstart(&mut self, drafts: Vec<AgentDraft>, intro: String) {
        let mut form = AgentsForm::new(drafts);
        form.quickstart = true;
        form.intro = Some(intro);
        self.view.modals.agents = Some(form);
        self.view.modals.stack.clear();
        self.open(ModalKind::Agents);
    }

    pub(super) fn agents_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(form) = self.view.modals.agents.as_mut() else {
            self.view.modals.close_top();
            return Vec::new();
        };
        match form.key(key) {
            AgentsAction::None => Vec::new(),
            AgentsAction::Fetch { kind, base_url } => vec![Effect::FetchModels { kind, base_url }],
            AgentsAction::Save { path, overwrite } => vec![Effect::SaveAgents {
                path: path.into(),
                yaml: form.yaml(),
                overwrite,
            }],
            AgentsAction::Apply => self.apply_agents(),
            AgentsAction::Close => {
                self.close_agents();
                Vec::new()
            }
        }
    }

    /// Text pasted while the agents view is open goes into its text field.
    pub(super) fn agents_paste(&mut self, text: &str) {
        if let Some(form) = self.view.modals.agents.as_mut() {
            form.paste(text);
        }
    }

    /// The next turns run with the form's agents: sent to the runtime, the view closed.
    fn apply_agents(&mut self) -> Vec<Effect> {
        if self.state.is_running() {
            if let Some(form) = self.view.modals.agents.as_mut() {
                form.note = Some("a turn is running: apply them once it ends".into());
            }
            return Vec::new();
        }
        let Some(form) = self.view.modals.agents.take() else {
            return Vec::new();
        };
        self.close_agents();
        self.view.notice = Some(APPLYING.into());
        let yaml = form.yaml();
        self.roster.apply(form.drafts);
        vec![Effect::Send(Op::ReplaceAgents { yaml })]
    }

    fn close_agents(&mut self) {
        self.view.modals.agents = None;
        if self.view.modals.top() == Some(ModalKind::Agents) {
            self.view.modals.close_top();
        }
    }

    /// `kind`'s model list came (or why it did not).
    pub fn models_listed(&mut self, kind: BackendKind, result: Result<Vec<String>, String>) {
        if let Some(form) = self.view.modals.agents.as_mut() {
            form.listed(kind, result);
        }
    }

    /// A save of the agents view ended; in quickstart a save also starts the session.
    pub fn agents_saved(&mut self, path: &str, outcome: SaveOutcome) -> Vec<Effect> {
        let Some(form) = self.view.modals.agents.as_mut() else {
            return Vec::new();
        };
        match outcome {
            SaveOutcome::Exists => form.save_exists(path.to_string()),
            SaveOutcome::Failed(why) => form.saved(path, Err(why)),
            SaveOutcome::Saved => {
                form.saved(path, Ok(()));
                if form.quickstart {
                    // `/config` opens the file the session now runs from.
                    self.place.config_file = Some(path.into());
                    let effects = self.apply_agents();
                    self.view.notice = Some(format!(
                        "saved {path}: ask your question (next time `massgen` starts with it)"
                    ));
                    return effects;
                }
            }
        }
        Vec::new()
    }

    /// The runtime took the agents last applied.
    pub(super) fn agents_replaced(&mut self, agents: &[AgentInfo]) {
        self.roster.taken();
        if self.view.notice.as_deref() == Some(APPLYING) {
            let ids: Vec<String> = agents.iter().map(|agent| agent.id.to_string()).collect();
            self.view.notice = Some(format!("the next turn runs with {}", ids.join(", ")));
        }
        if let Some(single) = &self.next.choices.single
            && !agents.iter().any(|agent| &agent.id == single)
        {
            self.next.choices.single = None;
        }
    }

    /// The runtime refused the agents last applied: its warning says why.
    pub(super) fn agents_refused(&mut self, message: &str) {
        if self.roster.refused() {
            self.view.notice = Some(message.to_string());
        }
    }

    /// Whether the agents view is on top and takes the keys.
    pub(super) fn agents_open(&self) -> bool {
        self.view.modals.top() == Some(ModalKind::Agents)
    }

    /// The step the agents view is on, if open (tests).
    #[cfg(test)]
    pub(super) fn agents_stage(&self) -> Option<&Stage> {
        self.view.modals.agents.as_ref().map(|form| &form.stage)
    }
}

/// A draft from what the roster says of an agent (when the run's config is not known).
fn draft_of(info: &AgentInfo) -> AgentDraft {
    let kind = BackendKind::from_name(&info.backend).unwrap_or(BackendKind::Scripted);
    AgentDraft::new(info.id.to_string(), kind, info.model.clone())
}
