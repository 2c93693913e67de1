//! `/metrics`: what the session's model calls and tool calls cost in time, folded from
//! `Usage` (with its call timing) and `ToolCallEnd` events, per agent and per tool.

use crate::protocol::{AgentId, Event, EventMsg};

/// The session's call metrics: agents and tools in the order they first appear.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    pub agents: Vec<AgentMetrics>,
    pub tools: Vec<ToolMetrics>,
}

/// One agent's model and tool calls over the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentMetrics {
    pub id: AgentId,
    pub model_calls: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Summed over the calls that streamed something (`ttft_calls` of them).
    pub ttft_ms: u64,
    pub ttft_calls: u64,
    pub model_ms: u64,
    pub tool_calls: u64,
    pub tool_ms: u64,
}

/// One tool's calls over the session, by every agent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolMetrics {
    pub name: String,
    pub calls: u64,
    pub failures: u64,
    pub total_ms: u64,
}

impl AgentMetrics {
    /// The mean time to first token, if any call streamed.
    pub fn mean_ttft_ms(&self) -> Option<u64> {
        (self.ttft_calls > 0).then(|| self.ttft_ms / self.ttft_calls)
    }
}

impl ToolMetrics {
    pub fn successes(&self) -> u64 {
        self.calls - self.failures
    }

    pub fn mean_ms(&self) -> u64 {
        self.total_ms.checked_div(self.calls).unwrap_or(0)
    }
}

impl Metrics {
    /// Counts `event` if it is a model call's usage or a finished tool call.
    pub fn apply(&mut self, event: &Event) {
        let Some(agent) = event.agent.as_ref() else {
            return;
        };
        if let EventMsg::Usage { usage, timing, .. } = &event.msg {
            let row = self.agent_mut(agent);
            row.model_calls += 1;
            row.input_tokens += usage.input_tokens;
            row.output_tokens += usage.output_tokens;
            if let Some(timing) = timing {
                row.model_ms += timing.duration_ms;
                if let Some(ttft) = timing.ttft_ms {
                    row.ttft_ms += ttft;
                    row.ttft_calls += 1;
                }
            }
        } else if let EventMsg::ToolCallEnd {
            tool,
            ok,
            duration_ms,
            ..
        } = &event.msg
        {
            let row = self.agent_mut(agent);
            row.tool_calls += 1;
            row.tool_ms += duration_ms;
            let at = match self.tools.iter().position(|row| &row.name == tool) {
                Some(at) => at,
                None => {
                    self.tools.push(ToolMetrics {
                        name: tool.clone(),
                        ..ToolMetrics::default()
                    });
                    self.tools.len() - 1
                }
            };
            let tool_row = &mut self.tools[at];
            tool_row.calls += 1;
            tool_row.total_ms += duration_ms;
            if !ok {
                tool_row.failures += 1;
            }
        }
    }

    fn agent_mut(&mut self, id: &AgentId) -> &mut AgentMetrics {
        let at = match self.agents.iter().position(|row| &row.id == id) {
            Some(at) => at,
            None => {
                self.agents.push(AgentMetrics {
                    id: id.clone(),
                    model_calls: 0,
                    input_tokens: 0,
                    output_tokens: 0,
                    ttft_ms: 0,
                    ttft_calls: 0,
                    model_ms: 0,
                    tool_calls: 0,
                    tool_ms: 0,
                });
                self.agents.len() - 1
            }
        };
        &mut self.agents[at]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{CallTiming, Usage};

    fn event(agent: &str, msg: EventMsg) -> Event {
        Event {
            seq: 1,
            at: jiff::Timestamp::UNIX_EPOCH,
            turn: 1,
            agent: Some(AgentId::new(agent)),
            msg,
        }
    }

    fn usage(input: u64, output: u64, timing: Option<CallTiming>) -> EventMsg {
        EventMsg::Usage {
            usage: Usage {
                input_tokens: input,
                output_tokens: output,
                ..Usage::default()
            },
            cost_usd: None,
            timing,
        }
    }

    fn tool_end(tool: &str, ok: bool, duration_ms: u64) -> EventMsg {
        EventMsg::ToolCallEnd {
            call_id: "c".into(),
            tool: tool.into(),
            ok,
            output: String::new(),
            duration_ms,
            category: None,
        }
    }

    #[test]
    fn model_calls_add_up_tokens_time_and_the_mean_time_to_first_token() {
        let mut metrics = Metrics::default();
        let timing = |duration_ms, ttft_ms| {
            Some(CallTiming {
                duration_ms,
                ttft_ms,
            })
        };
        metrics.apply(&event("a", usage(100, 10, timing(2000, Some(300)))));
        metrics.apply(&event("a", usage(50, 5, timing(1000, Some(100)))));
        metrics.apply(&event("a", usage(1, 1, timing(500, None))));
        metrics.apply(&event("b", usage(7, 7, None)));
        let a = &metrics.agents[0];
        assert_eq!(
            (a.model_calls, a.input_tokens, a.output_tokens),
            (3, 151, 16)
        );
        assert_eq!(a.model_ms, 3500);
        assert_eq!(a.mean_ttft_ms(), Some(200));
        assert_eq!(metrics.agents[1].mean_ttft_ms(), None);
        assert_eq!(metrics.agents[1].model_calls, 1);
    }

    #[test]
    fn tool_calls_count_per_agent_and_per_tool_with_failures() {
        let mut metrics = Metrics::default();
        metrics.apply(&event("a", tool_end("search", true, 100)));
        metrics.apply(&event("b", tool_end("search", false, 300)));
        metrics.apply(&event("b", tool_end("read", true, 40)));
        assert_eq!(metrics.tools.len(), 2);
        let search = &metrics.tools[0];
        assert_eq!(
            (search.calls, search.successes(), search.failures),
            (2, 1, 1)
        );
        assert_eq!((search.mean_ms(), search.total_ms), (200, 400));
        let b = &metrics.agents[1];
        assert_eq!((b.tool_calls, b.tool_ms), (2, 340));
    }
}
