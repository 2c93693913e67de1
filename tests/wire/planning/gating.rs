//! Config planning mode over Chat Completions: the tool-less irreversibility question, a
//! blocked `write_file` during coordination while reads run, the winner's write in its
//! presentation; and `ask_others` to the agents, a peer answering from a side call.

use std::path::{Path, PathBuf};

use massgen::protocol::{AgentId, Event, EventMsg, Mode, TurnOptions, TurnOutcome};
use serde_json::{Value, json};

use super::*;
use crate::support::{Scenario, outcome, transcript, winner};

const ANALYSIS: &str = "IRREVERSIBLE: YES/NO";
const BLOCKED: &str = "blocked during coordination";

/// Says writes are irreversible; during coordination tries a write, then a listing, then
/// answers; as the winner writes its result, then presents.
fn cautious(seen: &Seen) -> Act {
    if seen.tools.is_empty() && seen.says(ANALYSIS) {
        return Act::Text(format!("IRREVERSIBLE: YES\nBLOCKED_TOOLS: {WRITE_FILE}"));
    }
    if !seen.offers("vote") && seen.calls.is_empty() {
        return Act::call(WRITE_FILE, json!({"path": "final.txt", "content": "final"}));
    }
    coordinate(seen, |seen| {
        match (seen.last_call(WRITE_FILE), seen.last_call(LIST_DIRECTORY)) {
            (None, _) => Some(Act::call(
                WRITE_FILE,
                json!({"path": "draft.txt", "content": "draft"}),
            )),
            (Some(_), None) => Some(Act::call(LIST_DIRECTORY, json!({"path": "."}))),
            (Some(_), Some(_)) => None,
        }
    })
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push(path);
        }
    }
    found
}

#[tokio::test]
async fn planning_mode_blocks_the_named_write_over_the_wire_until_the_winner_presents() {
    let server = serve(Wire::Chat, cautious).await;
    let yaml = two_agents(
        Wire::Chat,
        &server,
        "  coordination: {enable_planning_mode: true}\n",
    );
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Tidy the notes", Mode::Normal, TurnOptions::default())
        .await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(&events)
    );
    let decided = events.iter().find_map(|event| match &event.msg {
        EventMsg::PlanningModeDecided {
            irreversible,
            blocked_tools,
        } => Some((*irreversible, blocked_tools.clone())),
        _ => None,
    });
    assert_eq!(decided, Some((true, vec![WRITE_FILE.to_string()])));

    let requests = seen(Wire::Chat, &server);
    let questions: Vec<&Recorded> = requests
        .iter()
        .filter(|(_, seen)| seen.tools.is_empty())
        .map(|(request, _)| request)
        .collect();
    assert_eq!(questions.len(), 1, "one tool-less analysis request");
    let messages = questions[0].body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "user");
    assert!(messages[0]["content"].as_str().unwrap().contains(ANALYSIS));
    assert!(questions[0].body.get("tools").is_none());

    let winner = winner(&events).unwrap();
    for agent in ["alpha", "beta"] {
        let blocked: Vec<&str> = events
            .iter()
            .filter(|event| event.agent.as_ref().is_some_and(|id| id.as_str() == agent))
            .filter_map(|event| match &event.msg {
                EventMsg::ToolBlocked { tool, message, .. } => {
                    assert!(message.contains(BLOCKED), "{message}");
                    Some(tool.as_str())
                }
                _ => None,
            })
            .collect();
        assert!(
            !blocked.is_empty() && blocked.iter().all(|tool| *tool == WRITE_FILE),
            "{agent}: {blocked:?}"
        );
        // The model was told, in the tool result of its write, and the listing ran.
        let told = requests.iter().any(|(_, seen)| {
            seen.model == agent
                && seen
                    .last_call(WRITE_FILE)
                    .and_then(|call| call.result.as_deref())
                    .is_some_and(|result| result.contains(BLOCKED))
        });
        assert!(told, "{agent} read that its write was blocked");
        let runs = tool_runs(&events, agent);
        assert!(
            runs.contains(&(LIST_DIRECTORY.to_string(), true)),
            "{agent}: {runs:?}"
        );
        let wrote = runs.contains(&(WRITE_FILE.to_string(), true));
        assert_eq!(wrote, agent == winner, "{agent}: {runs:?}");
    }
    // The presentation offered the write and it ran; no draft ever reached a workspace.
    let presented = requests
        .iter()
        .filter(|(_, seen)| !seen.offers("vote") && !seen.tools.is_empty())
        .map(|(_, seen)| seen)
        .collect::<Vec<_>>();
    assert!(
        presented
            .iter()
            .all(|seen| seen.model == winner && seen.offers(WRITE_FILE))
    );
    let last = presented.last().unwrap().last_call(WRITE_FILE).unwrap();
    assert!(!last.result.as_deref().unwrap().contains(BLOCKED));
    let names: Vec<String> = files_under(&scenario.dir.path().join(".massgen").join("workspaces"))
        .iter()
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(names.contains(&"final.txt".to_string()), "{names:?}");
    assert!(!names.contains(&"draft.txt".to_string()), "{names:?}");
}

const BROADCAST: &str = "BROADCAST QUESTION FROM AGENT1";
const REPLY: &str = "Markdown: it diffs well and renders everywhere.";

/// `asker` asks the others once per conversation before answering; any agent asked from
/// a side call replies with [`REPLY`].
fn colleagues(seen: &Seen) -> Act {
    if seen.tools.is_empty() && seen.says(BROADCAST) {
        return Act::Text(REPLY.into());
    }
    coordinate(seen, |seen| {
        if seen.model != "asker" {
            return None;
        }
        let Some(asked) = seen.last_call("ask_others") else {
            return seen.offers("ask_others").then(|| {
                Act::call(
                    "ask_others",
                    json!({"questions": [{"text": "Which format should the guide use?",
                        "options": [{"id": "md", "label": "Markdown"}, {"id": "pdf", "label": "PDF"}]}]}),
                )
            });
        };
        let result: Value = serde_json::from_str(asked.result.as_deref()?).ok()?;
        let reply = result["responses"][0]["content"].as_str()?;
        let content = format!("{} Format: {reply}", answer_text(&seen.model));
        Some(Act::call("new_answer", json!({"content": content})))
    })
}

fn ask_results(requests: &[(Recorded, Seen)]) -> Vec<Value> {
    requests
        .iter()
        .filter(|(_, seen)| seen.model == "asker")
        .filter_map(|(_, seen)| seen.last_call("ask_others")?.result.clone())
        .map(|result| serde_json::from_str(&result).unwrap())
        .collect()
}

fn answered_by(events: &[Event]) -> Vec<(Option<AgentId>, String)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::BroadcastAnswered { from, answer, .. } => {
                Some((from.clone(), answer.clone()))
            }
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn ask_others_over_the_wire_gets_the_peers_reply_from_a_side_call() {
    let server = serve(Wire::Chat, colleagues).await;
    let yaml = format!(
        "agents:\n  - id: asker\n    backend: {}\n  - id: helper\n    backend: {}\n\
         orchestrator:\n  coordination: {{broadcast: agents}}\n",
        Wire::Chat.backend(&server, "asker"),
        Wire::Chat.backend(&server, "helper"),
    );
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Write a guide", Mode::Normal, TurnOptions::default())
        .await;
    assert_eq!(
        outcome(&events),
        TurnOutcome::Completed,
        "{:?}",
        transcript(&events)
    );
    let answers = answered_by(&events);
    assert!(!answers.is_empty());
    assert!(
        answers
            .iter()
            .all(|(from, answer)| from == &Some(AgentId::new("helper")) && answer == REPLY),
        "{answers:?}"
    );

    let asker_answer = events.iter().find_map(|event| match &event.msg {
        EventMsg::AnswerSubmitted { content, .. } if event.agent == Some(AgentId::new("asker")) => {
            Some(content.clone())
        }
        _ => None,
    });
    assert!(asker_answer.unwrap().ends_with(REPLY));

    let requests = seen(Wire::Chat, &server);
    let (offered, _) = requests
        .iter()
        .find(|(_, seen)| seen.model == "asker" && seen.offers("ask_others"))
        .unwrap();
    let tool = Wire::Chat.tool(&offered.body, "ask_others").unwrap();
    assert_eq!(tool["type"], "function");
    assert!(tool["function"]["parameters"]["properties"]["questions"].is_object());
    // The helper answered from a side call of its own: no tools, its question in the user
    // message, options and all.
    let (side, side_seen) = requests
        .iter()
        .find(|(_, seen)| seen.says(BROADCAST))
        .expect("the helper was asked");
    assert_eq!(side_seen.model, "helper");
    assert!(side.body.get("tools").is_none());
    let messages = side.body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "system");
    let question = messages[1]["content"].as_str().unwrap();
    assert!(
        question.contains("Which format should the guide use?")
            && question.contains("Markdown (md)"),
        "{question}"
    );
    // The asker read the reply in the result of its call.
    let results = ask_results(&requests);
    assert!(!results.is_empty());
    for result in &results {
        assert_eq!(result["status"], "complete", "{result}");
        assert_eq!(result["responses"][0]["responder_id"], "agent2", "{result}");
        assert_eq!(result["responses"][0]["content"], REPLY, "{result}");
    }
}
