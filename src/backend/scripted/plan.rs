//! What the scripted model does with one request. Pure: no clock, no IO.
//!
//! In order: answer the irreversibility question (no tools); present as the winner (no
//! `vote` tool; an executed plan's tasks first); then, before its first answer, ask with `ask_others`, write the plan
//! (planning mode), work through the task tools (execution mode), make the configured
//! `tool_calls`; then answer or vote.

#[cfg(test)]
mod tests;

use super::{ask, checklist, decomposing, personas, plan_report, planning, reading, tasks};
use crate::backend::ChatRequest;
use crate::config::{FailureMode, ScriptedOptions, ScriptedToolCall};
use crate::protocol::{AnonId, AnonymousMapping};

/// How `evaluation_criteria_generator`'s request begins.
const CRITERIA_REQUEST: &str = "You are writing the evaluation criteria";

/// How `criteria_mode: bootstrap_subagent`'s critic request begins.
pub(super) const CRITIC_REQUEST: &str = "You are a discriminative critic";

pub struct Context<'a> {
    pub options: &'a ScriptedOptions,
    pub own_anon: Option<&'a AnonId>,
    pub mapping: &'a AnonymousMapping,
    pub request: &'a ChatRequest,
    pub failure: Option<FailureMode>,
    /// The model name, signed on task notes.
    pub model: &'a str,
    /// This request is a post-evaluation: the decision to make (`None` inside: none).
    pub evaluation: Option<Option<ScriptedToolCall>>,
    /// What `{reply}` stands for: the replies to the agent's `ask_others` question, this
    /// conversation's or remembered from an earlier one; `None` = nobody was asked.
    pub reply: Option<&'a str>,
    /// This request is the bootstrap critic's: its scripted reply.
    pub critic: Option<&'a str>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Answer(String),
    Vote {
        agent_id: String,
        reason: String,
    },
    CallTools(Vec<ScriptedToolCall>),
    /// Decomposition mode's `stop`: the subtask is done.
    Stop {
        summary: String,
    },
    /// The final presentation: plain text, no tools.
    Present(String),
    /// Text only, no tool call at all.
    Talk,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub reasoning: Option<String>,
    pub text: Option<String>,
    pub action: Action,
}

pub fn plan(context: &Context<'_>) -> Plan {
    let options = context.options;
    let request = context.request;
    if planning::is_irreversibility_question(request) {
        return Plan {
            reasoning: None,
            text: None,
            action: Action::Present(options.planning_analysis.clone()),
        };
    }
    if personas::is_persona_request(request) {
        return Plan {
            reasoning: None,
            text: None,
            action: Action::Present(personas::reply(request, options.personas.as_deref())),
        };
    }
    if let Some(subtasks) = decomposing::reply(request) {
        return Plan {
            reasoning: None,
            text: None,
            action: Action::Present(subtasks),
        };
    }
    if let Some(reply) = context.critic {
        return Plan {
            reasoning: None,
            text: None,
            action: Action::Present(reply.to_string()),
        };
    }
    if request.tools.is_empty() && reading::user_says(request, CRITERIA_REQUEST) {
        return Plan {
            reasoning: None,
            text: None,
            action: Action::Present(options.criteria_reply.clone()),
        };
    }
    if let Some(decision) = &context.evaluation {
        return Plan {
            reasoning: None,
            text: Some("Checking the final answer against the task.".into()),
            action: decision
                .clone()
                .map_or(Action::Talk, |call| Action::CallTools(vec![call])),
        };
    }
    let question = reading::question(request);
    let reply = context.reply.unwrap_or(ask::NO_REPLY);
    let fill = |text: &str| {
        text.replace("{question}", &question)
            .replace("{reply}", reply)
    };
    let reasoning = options.reasoning.as_deref().map(fill);
    let replied = context.reply.is_some_and(|reply| reply != ask::NO_REPLY);
    let with_reply = |text: String| match options.with_reply.as_deref().filter(|_| replied) {
        Some(note) => format!("{}\n\n{}", text.trim_end(), fill(note)),
        None => text,
    };

    // Decomposition mode offers `stop` where voting offers `vote`.
    let stop_offered = reading::offers(request, "stop");
    let Some(vote_options) = reading::vote_options(request).or_else(|| stop_offered.then(Vec::new))
    else {
        if !options.final_tool_calls.is_empty() && !reading::has_tool_results(request) {
            return Plan {
                reasoning,
                text: None,
                action: Action::CallTools(options.final_tool_calls.clone()),
            };
        }
        if let Some(call) = plan_report::check(request) {
            return Plan {
                reasoning,
                text: None,
                action: Action::CallTools(vec![call]),
            };
        }
        let mut final_text = options
            .final_answer
            .as_deref()
            .or(options.answers.last().map(String::as_str))
            .map(|text| with_reply(fill(text)))
            .unwrap_or_default();
        if let Some(report) = plan_report::report(request) {
            final_text = format!("{report}\n{final_text}");
        }
        return Plan {
            reasoning,
            text: None,
            action: Action::Present(final_text),
        };
    };

    if context.failure == Some(FailureMode::NoWorkflow) {
        return Plan {
            reasoning,
            text: Some(
                options
                    .text
                    .as_deref()
                    .map_or_else(|| "Thinking it over.".into(), fill),
            ),
            action: Action::Talk,
        };
    }

    if let (Some(rounds), Some(first)) = (options.tool_call_rounds, options.tool_calls.first())
        && reading::results_of(request, &first.name) < rounds as usize
    {
        return Plan {
            reasoning,
            text: options.text.as_deref().map(fill),
            action: Action::CallTools(options.tool_calls.clone()),
        };
    }

    let answers = reading::current_answers(request);
    let own_answer = context
        .own_anon
        .and_then(|own| answers.iter().find(|(anon, _)| anon == own.as_str()))
        .map(|(_, text)| text.as_str());
    let filled: Vec<String> = options
        .answers
        .iter()
        .map(|answer| with_reply(fill(answer)))
        .collect();
    let next_answer = match own_answer {
        None => filled.first(),
        Some(current) => filled
            .iter()
            .position(|answer| answer.trim() == current)
            .and_then(|index| filled.get(index + 1)),
    };
    let rejected = reading::last_rejected_tool(request);
    let may_answer = reading::offers(request, "new_answer") && rejected != Some("new_answer");

    if own_answer.is_none() {
        let first_work = [
            ask::call(request, options.ask.as_ref())
                .map(|call| ("Asking the others before I answer.".to_string(), vec![call])),
            planning::write_plan(request, &options.plan, &question).map(|call| {
                (
                    format!("Writing the plan to {}.", planning::PLAN_FILE),
                    vec![call],
                )
            }),
            tasks::next(request, context.model).map(|calls| (task_narration(&calls), calls)),
        ];
        if let Some((text, calls)) = first_work.into_iter().flatten().next() {
            return Plan {
                reasoning,
                text: Some(text),
                action: Action::CallTools(calls),
            };
        }
        let made_tool_calls = options
            .tool_calls
            .iter()
            .any(|call| reading::has_result_of(request, &call.name));
        if !options.tool_calls.is_empty() && !made_tool_calls && options.tool_call_rounds.is_none()
        {
            return Plan {
                reasoning,
                text: options.text.as_deref().map(fill),
                action: Action::CallTools(options.tool_calls.clone()),
            };
        }
    }

    let answer_index =
        own_answer.and_then(|current| filled.iter().position(|answer| answer.trim() == current));
    let checklist_step = checklist::step(request, options, answer_index);
    if let Some(checklist::Step::Submit(call)) = checklist_step {
        return Plan {
            reasoning,
            text: Some(if call.name == "draft_approach" {
                "Planning the next answer.".into()
            } else {
                "Scoring the answers against the checklist.".into()
            }),
            action: Action::CallTools(vec![call]),
        };
    }
    let verdict_says_vote = checklist_step == Some(checklist::Step::Vote);
    if let Some(answer) = next_answer.filter(|_| may_answer && !verdict_says_vote) {
        return Plan {
            reasoning,
            text: options.text.as_deref().map(fill),
            action: Action::Answer(answer.clone()),
        };
    }

    if stop_offered {
        let summary = options
            .vote_reason
            .clone()
            .unwrap_or_else(|| "My subtask is done.".into());
        return Plan {
            reasoning,
            text: Some("Reviewed every agent's work; my subtask is done.".into()),
            action: Action::Stop { summary },
        };
    }
    if vote_options.is_empty() {
        let fallback = filled.first().cloned().unwrap_or_default();
        return Plan {
            reasoning,
            text: options.text.as_deref().map(fill),
            action: Action::Answer(fallback),
        };
    }

    let agent_id = if context.failure == Some(FailureMode::InvalidVote) {
        "agent99".to_string()
    } else {
        choose_vote(context, &vote_options)
    };
    let preferred = options
        .vote_for
        .as_ref()
        .and_then(|target| context.mapping.anon(target))
        .is_some_and(|anon| anon.as_str() == agent_id);
    let reason = match &options.vote_reason {
        Some(reason) if preferred || options.vote_for.is_none() => reason.clone(),
        _ => "The best answer available so far.".into(),
    };
    Plan {
        reasoning,
        text: Some(format!(
            "Comparing {} answer{} before voting.",
            answers.len(),
            if answers.len() == 1 { "" } else { "s" }
        )),
        action: Action::Vote { agent_id, reason },
    }
}

/// What the model says while it calls the task tools.
fn task_narration(calls: &[ScriptedToolCall]) -> String {
    let mut tasks: Vec<String> = Vec::new();
    for id in calls
        .iter()
        .filter_map(|call| call.arguments.get("task_id"))
    {
        let id = id.as_str().map_or_else(|| id.to_string(), str::to_string);
        if !tasks.contains(&id) {
            tasks.push(id);
        }
    }
    if tasks.is_empty() {
        "Checking which tasks are ready.".into()
    } else {
        format!("Working through {}.", tasks.join(", "))
    }
}

/// `vote_for` if that agent has an answer, else the agent's own answer, else the first.
fn choose_vote(context: &Context<'_>, vote_options: &[String]) -> String {
    let preferred = context
        .options
        .vote_for
        .as_ref()
        .and_then(|target| context.mapping.anon(target));
    [preferred, context.own_anon]
        .into_iter()
        .flatten()
        .map(AnonId::as_str)
        .find(|anon| vote_options.iter().any(|option| option == anon))
        .map(str::to_string)
        .or_else(|| vote_options.first().cloned())
        .unwrap_or_default()
}
