//! The workspace browser's keys, and reading what it shows when its choice changes.

use crossterm::event::{KeyCode, KeyEvent};

use super::App;
use crate::tui::files::{self, FileListing, FilesSource};
use crate::tui::view::ModalKind;

impl App {
    pub(super) fn open_files(&mut self) {
        self.open(ModalKind::Files {
            agent: self.view.cards.focused,
            source: FilesSource::Workspace,
            selected: 0,
        });
        self.refresh_files();
    }

    /// Keys of an open workspace browser; `false` when the key is not its own.
    pub(super) fn files_key(&mut self, key: KeyEvent) -> bool {
        let agents = self.state.agents.len().max(1);
        let entries = self.view.modals.files.entries.len();
        let Some(top) = self.view.modals.top_mut() else {
            return false;
        };
        let ModalKind::Files {
            agent,
            source,
            selected,
        } = &mut top.kind
        else {
            return false;
        };
        match key.code {
            KeyCode::Left => *agent = (*agent + agents - 1) % agents,
            KeyCode::Right => *agent = (*agent + 1) % agents,
            KeyCode::Tab => *source = source.next(),
            KeyCode::Up => *selected = selected.saturating_sub(1),
            KeyCode::Down => *selected = (*selected + 1).min(entries.saturating_sub(1)),
            _ => return false,
        }
        if matches!(key.code, KeyCode::Left | KeyCode::Right | KeyCode::Tab) {
            *selected = 0;
        }
        top.scroll = 0;
        self.refresh_files();
        true
    }

    /// Reads the directory the browser points at, and the chosen file.
    pub(super) fn refresh_files(&mut self) {
        let Some(ModalKind::Files {
            agent,
            source,
            selected,
        }) = self.view.modals.top()
        else {
            return;
        };
        let Some(card) = self.state.agents.get(agent) else {
            self.view.modals.files = FileListing::note("no agent");
            return;
        };
        let Some(dirs) = self
            .state
            .tools
            .workspaces
            .iter()
            .find(|dirs| dirs.agent == card.info.id)
        else {
            self.view.modals.files = FileListing::note(format!(
                "{} has no workspace: give its backend a `cwd` in the config",
                card.info.id
            ));
            return;
        };
        let root = match source {
            FilesSource::Workspace => dirs.workspace.clone(),
            FilesSource::Snapshot => dirs.snapshot.clone(),
            FilesSource::Peers => dirs.temp.clone(),
            FilesSource::Final => {
                let winner = self.state.turn.winner.as_ref();
                match (&self.state.turn.log_dir, winner) {
                    (Some(log), Some(winner)) if winner == &card.info.id => {
                        log.join("final").join(winner.as_str()).join("workspace")
                    }
                    (Some(_), Some(winner)) => {
                        self.view.modals.files = FileListing::note(format!(
                            "only the winner's final workspace is kept; this turn's winner is {winner}"
                        ));
                        return;
                    }
                    (None, _) | (_, None) => {
                        self.view.modals.files = FileListing::note(
                            "no final workspace yet: it is saved in the log when a turn ends",
                        );
                        return;
                    }
                }
            }
        };
        self.view.modals.files = files::list(&root, selected);
    }
}
