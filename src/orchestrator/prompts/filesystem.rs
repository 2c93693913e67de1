//! The filesystem section of an agent's prompts: its workspace, its peers' copies, the
//! context paths and what it may do with them; answers' paths shown as the reader's copies.

use std::fmt::Write as _;
use std::path::Path;

use crate::config::Permission;
use crate::workspace::ContextRootSpec;

/// The directories an agent works with, for the filesystem section of its prompts.
pub struct FilesystemView<'a> {
    pub workspace: &'a Path,
    pub temp: &'a Path,
    pub context: &'a [ContextRootSpec],
    /// Every agent's anonymous id and workspace: paths to a workspace in an answer are
    /// shown as the reader's copy of it (`<temp>/agent2/…`).
    pub peers: Vec<(&'a str, &'a Path)>,
}

impl FilesystemView<'_> {
    pub(super) fn localise(&self, answer: &str) -> String {
        let mut text = answer.to_string();
        for (anon, workspace) in &self.peers {
            let from = workspace.display().to_string();
            if !from.is_empty() && text.contains(&from) {
                text = text.replace(&from, &self.temp.join(anon).display().to_string());
            }
        }
        text
    }
}

/// Where the agent works and what else it may read (or, presenting, write).
pub(super) fn filesystem_instructions(view: &FilesystemView<'_>, presenting: bool) -> String {
    let mut text = format!(
        "Your workspace is {workspace}: create and edit files there with your file tools; \
         relative paths are taken from it. Other agents' work from their latest answers is \
         in {temp}, one folder per agent under the same anonymous ids as <CURRENT ANSWERS> \
         (read only). Mention the files your answer relies on by their paths.",
        workspace = view.workspace.display(),
        temp = view.temp.display(),
    );
    for context in view.context {
        let access = match (context.permission, presenting) {
            (Permission::Write, true) => "read and write: put the final result here",
            (Permission::Write, false) => {
                "read only for now; the agent chosen to present may write it at the end"
            }
            (Permission::Read, true | false) => "read only",
        };
        let _ = write!(
            text,
            "\nContext path {} ({access}).",
            context.path.display()
        );
    }
    text
}
