//! The guardrail section of an agent whose tools are under a `permissions:` block (the idea
//! of MassGen's `PermissionGuardrailSection`): asking is normal, a denial is final, and a
//! denial that blocks the task is reported, not routed around.

use crate::config::{PermissionRole, PermissionsConfig};

/// What an agent with permissions is told about them.
pub fn guardrail(config: &PermissionsConfig) -> String {
    let role = match config.role {
        Some(PermissionRole::ReadOnly) => {
            "\n\nYour role is **read-only**: you may read files, but writing files and running \
             commands are denied, and fetching URLs needs approval."
        }
        Some(PermissionRole::ReadWrite) => {
            "\n\nYour role is **read-write**: reading, writing and running commands are open to \
             you, within the rules above."
        }
        None => "",
    };
    format!(
        "## Tool permissions\n\
         Every tool call you make is checked against permission rules before it runs. Some \
         calls run at once, some wait for a person to approve them, some are denied.\n\
         - Waiting for an approval is normal: make the call you need and let it be asked.\n\
         - A denied call comes back as an error that says what denied it, sometimes with a \
         message from the user. Treat it as final: do not retry it, and do not reach the same \
         effect another way (another tool, another command, a script that does it for you).\n\
         - If a denial keeps you from finishing, go on with what you can do and say in your \
         answer what was denied and what it would have been for.{role}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guardrail_says_not_to_route_around_a_denial_and_names_the_role() {
        let plain = guardrail(&PermissionsConfig::default());
        assert!(
            plain.contains("do not reach the same effect another way"),
            "{plain}"
        );
        assert!(!plain.contains("role"), "{plain}");
        let read_only = guardrail(&PermissionsConfig {
            role: Some(PermissionRole::ReadOnly),
            ..PermissionsConfig::default()
        });
        assert!(
            read_only.contains("Your role is **read-only**"),
            "{read_only}"
        );
    }
}
