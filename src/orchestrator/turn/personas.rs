//! `persona_generator` at the start of a turn: the first participant's model writes each
//! participant a persona (or a session's earlier personas are reused), each agent's goes
//! into its system message, and `PersonaAssigned` tells the front ends.

use tokio::sync::mpsc;

use super::Driver;
use super::side_call::SideCall;
use crate::config::{AfterFirstAnswer, PersonaGeneratorConfig};
use crate::orchestrator::personas::{self, Personas};
use crate::protocol::{AgentId, EventMsg, Op};

impl Driver<'_> {
    /// Gives every participant its persona when the generator is on. Ops that arrive
    /// meanwhile are handled; returns false when the turn ended (cancelled) before the
    /// personas came.
    pub(super) async fn assign_personas(&mut self, ops: &mut mpsc::Receiver<Op>) -> bool {
        let Some(config) = self
            .run
            .config
            .orchestrator
            .coordination
            .persona_generator
            .clone()
        else {
            return true;
        };
        let participants = self.coordination.agents().to_vec();
        let kept = if config.persist_across_turns {
            self.kept_personas()
        } else {
            None
        };
        let reused = kept.is_some();
        let personas = match kept {
            Some(personas) => personas,
            None => match self.generate_personas(&config, &participants, ops).await {
                Some(personas) => personas,
                None => return false,
            },
        };
        if let Some(reason) = &personas.fallback_reason
            && !reused
        {
            self.emit(
                None,
                EventMsg::Warning {
                    message: format!(
                        "persona generator: {reason}; the agents work under stock personas \
                         and the turn goes on"
                    ),
                },
            );
        }
        self.personas = vec![None; self.run.config.agents.len()];
        for (id, persona) in &personas.by_agent {
            let agent = AgentId::new(id.as_str());
            let Some(index) = self.agent_index(&agent) else {
                continue;
            };
            self.emit(
                Some(&agent),
                EventMsg::PersonaAssigned {
                    text: persona.text.clone(),
                    summary: persona.summary.clone(),
                    reused,
                },
            );
            self.personas[index] = Some(persona.clone());
        }
        if config.persist_across_turns
            && let Ok(mut kept) = self.run.kept_personas.lock()
        {
            *kept = Some(personas);
        }
        true
    }

    /// The personas an earlier turn of the session kept.
    fn kept_personas(&self) -> Option<Personas> {
        self.run
            .kept_personas
            .lock()
            .ok()
            .and_then(|kept| kept.clone())
    }

    /// One call to the first participant's model; `None` when the turn was cancelled
    /// meanwhile. Out of time before the reply, the stock personas stand in and the turn's
    /// own timeout follows at once.
    async fn generate_personas(
        &mut self,
        config: &PersonaGeneratorConfig,
        participants: &[AgentId],
        ops: &mut mpsc::Receiver<Op>,
    ) -> Option<Personas> {
        let ids: Vec<String> = participants.iter().map(ToString::to_string).collect();
        let Some((writer, index)) = participants
            .first()
            .and_then(|agent| Some((agent.clone(), self.agent_index(agent)?)))
        else {
            return Some(Personas {
                by_agent: Vec::new(),
                fallback_reason: None,
            });
        };
        let agents: Vec<(String, Option<String>)> = participants
            .iter()
            .map(|agent| {
                let instruction = self
                    .agent_index(agent)
                    .and_then(|index| self.task_kit.system_message(index))
                    .map(str::to_string);
                (agent.to_string(), instruction)
            })
            .collect();
        let prompt = personas::request(config, &self.request.question, &agents);
        let model = self.model_link(&writer, index);
        let asking = personas::generate(&model, config, prompt, &ids);
        // The call's usage is reported before the first round starts.
        match self.side_call(asking, ops).await {
            SideCall::Replied(personas) => Some(personas),
            SideCall::OutOfTime => Some(Personas {
                by_agent: personas::fallback(config.diversity_mode, &ids),
                fallback_reason: Some("the turn ran out of time before its reply".into()),
            }),
            SideCall::TurnEnded => None,
        }
    }

    /// The agent's generated persona this turn, if it has one.
    pub(super) fn persona(&self, index: usize) -> Option<&str> {
        self.personas
            .get(index)?
            .as_ref()
            .map(|persona| persona.text.as_str())
    }

    /// What becomes of the agent's persona once it has seen a peer's answer: as
    /// `after_first_answer` says for a generated one; an `agents[i].persona` softens.
    pub(super) fn persona_after_peers(&self, index: usize) -> AfterFirstAnswer {
        match &self.run.config.orchestrator.coordination.persona_generator {
            Some(config) if self.persona(index).is_some() => config.after_first_answer,
            _ => AfterFirstAnswer::Soften,
        }
    }
}
