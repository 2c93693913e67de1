//! Approvals that outlive one call within a run (`once` until used, `session` for the rest
//! of the run), and the stable id a headless request is filed under.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use crate::protocol::GrantScope;

/// The run's grants, keyed by agent, tool and the call's pattern.
#[derive(Debug, Default)]
pub struct SessionGrants {
    grants: Mutex<HashMap<String, GrantScope>>,
}

impl SessionGrants {
    pub fn key(agent: &str, tool: &str, pattern: &str) -> String {
        format!("{agent}\u{1f}{tool}\u{1f}{pattern}")
    }

    pub fn grant(&self, key: String, scope: GrantScope) {
        self.grants
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, scope);
    }

    /// Whether a grant covers `key`; a `once` grant is used up by this.
    pub fn covers(&self, key: &str) -> bool {
        let mut grants = self.grants.lock().unwrap_or_else(PoisonError::into_inner);
        match grants.get(key) {
            None => false,
            Some(GrantScope::Once) => {
                grants.remove(key);
                true
            }
            Some(GrantScope::Session | GrantScope::Always) => true,
        }
    }
}

/// The id a request is filed under in the file handshake (`req_<id>.json`): the same call
/// of the same agent always gets the same id, so an answer written before a restart counts.
pub fn handshake_id(agent: &str, tool: &str, pattern: &str) -> String {
    // FNV-1a, twice with different offsets, for 16 hex digits.
    let text = SessionGrants::key(agent, tool, pattern);
    let hash = |offset: u64| {
        text.bytes().fold(offset, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    format!(
        "{:08x}{:08x}",
        hash(0xcbf2_9ce4_8422_2325) >> 32,
        hash(0x8422_2325_cbf2_9ce4) >> 32
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_once_grant_is_used_up_and_a_session_grant_stays() {
        let grants = SessionGrants::default();
        let once = SessionGrants::key("a", "t", "command:ls");
        let session = SessionGrants::key("a", "t", "command:pwd");
        grants.grant(once.clone(), GrantScope::Once);
        grants.grant(session.clone(), GrantScope::Session);
        assert!(grants.covers(&once));
        assert!(!grants.covers(&once));
        assert!(grants.covers(&session));
        assert!(grants.covers(&session));
        assert!(!grants.covers(&SessionGrants::key("b", "t", "command:pwd")));
    }

    #[test]
    fn handshake_ids_are_stable_and_tell_calls_apart() {
        let id = handshake_id("a", "t", "command:ls");
        assert_eq!(id.len(), 16);
        assert_eq!(id, handshake_id("a", "t", "command:ls"));
        assert_ne!(id, handshake_id("a", "t", "command:ls -l"));
        assert_ne!(id, handshake_id("b", "t", "command:ls"));
    }
}
