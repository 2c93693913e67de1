//! MassGen's fairness and pressure knobs (`orchestrator.fairness_enabled`,
//! `fairness_lead_cap_answers`, `max_midstream_injections_per_round`,
//! `defer_peer_updates_until_restart`, `orchestrator.coordination.novelty_injection`), with
//! MassGen 0.1.97's defaults.

/// How far one agent may run ahead of its peers, and how peers' answers reach it mid-round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fairness {
    /// `fairness_enabled`: the lead cap and the injection cap apply.
    pub enabled: bool,
    /// `fairness_lead_cap_answers`: how many answers an agent may lead the slowest active
    /// peer by (0 = lockstep).
    pub lead_cap_answers: u32,
    /// `max_midstream_injections_per_round`: peers' answers injected into one round, at most.
    pub max_midstream_injections_per_round: u32,
    /// `defer_peer_updates_until_restart`: peers' answers wait for the agent's next round.
    pub defer_peer_updates_until_restart: bool,
}

impl Default for Fairness {
    /// MassGen 0.1.97: on, a lead of 2 answers, 2 injections per round, no deferral.
    fn default() -> Self {
        Self {
            enabled: true,
            lead_cap_answers: 2,
            max_midstream_injections_per_round: 2,
            defer_peer_updates_until_restart: false,
        }
    }
}

impl Fairness {
    /// The lead cap, when fairness is on.
    pub fn lead_cap(self) -> Option<u32> {
        self.enabled.then_some(self.lead_cap_answers)
    }

    /// The per-round injection cap, when fairness is on.
    pub fn injection_cap(self) -> Option<u32> {
        self.enabled
            .then_some(self.max_midstream_injections_per_round)
    }
}

/// `novelty_injection`: how hard agents are pushed to question their approach rather than
/// polish it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NoveltyInjection {
    #[default]
    None,
    Gentle,
    Moderate,
    Aggressive,
}

impl NoveltyInjection {
    pub const NAMES: [&'static str; 4] = ["none", "gentle", "moderate", "aggressive"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "none" => Some(Self::None),
            "gentle" => Some(Self::Gentle),
            "moderate" => Some(Self::Moderate),
            "aggressive" => Some(Self::Aggressive),
            _ => None,
        }
    }
}
