//! Synthetic council and debate turns the strategy displays are tested on: a council of
//! three where `alpha` ranks through the tool, `beta` only in its reply's text and `gamma`
//! never ranks; and a two-round debate of two members.

use crate::protocol::{
    AgentId, AgentInfo, AnswerLabel, ChairmanBasis, Event, EventMsg, Mode, RankedStanding,
    RankingSource, Stage, Strategy, StrategyEvent, TurnOptions,
};
use crate::tui::test_support::event;

pub const COUNCIL: [&str; 3] = ["alpha", "beta", "gamma"];
pub const DEBATERS: [&str; 2] = ["pro", "con"];

pub fn roster(ids: &[&str]) -> Vec<AgentInfo> {
    AgentInfo::roster(
        ids.iter()
            .map(|id| (AgentId::new(*id), "scripted".to_string(), "m".to_string())),
    )
}

pub fn turn_started(ids: &[&str], strategy: Strategy) -> EventMsg {
    EventMsg::TurnStarted {
        question: "Which cache?".into(),
        mode: Mode::Normal,
        agents: roster(ids),
        log_dir: None,
        options: TurnOptions {
            strategy: Some(strategy),
            ..TurnOptions::default()
        },
    }
}

pub fn stage(stage: Stage) -> EventMsg {
    EventMsg::Strategy(StrategyEvent::StageStarted { stage })
}

fn ids(names: &[&str]) -> Vec<AgentId> {
    names.iter().map(|name| AgentId::new(*name)).collect()
}

fn answer(info: &AgentInfo, count: usize, content: &str) -> EventMsg {
    EventMsg::AnswerSubmitted {
        label: AnswerLabel::answer(&info.anon_id, count),
        anon_id: info.anon_id.clone(),
        content: content.into(),
        votes_reset: Some(Vec::new()),
    }
}

fn standing(agent: &str, points: u32, ballots: u32) -> RankedStanding {
    RankedStanding {
        agent: AgentId::new(agent),
        points,
        mean_rank: Some(1.0),
        ballots,
    }
}

fn numbered(msgs: Vec<(Option<&str>, EventMsg)>) -> Vec<Event> {
    msgs.into_iter()
        .enumerate()
        .map(|(seq, (agent, msg))| event(seq as u64 + 1, agent, msg))
        .collect()
}

/// The council turn up to its ranking stage, every member answered (no ballot yet).
pub fn council_answered() -> Vec<(Option<&'static str>, EventMsg)> {
    let roster = roster(&COUNCIL);
    let mut msgs = vec![
        (None, turn_started(&COUNCIL, Strategy::Council)),
        (None, stage(Stage::Answering)),
    ];
    for ((id, info), text) in COUNCIL.into_iter().zip(&roster).zip([
        "An LRU in memory.",
        "Redis in front of the database.",
        "No cache: add an index.",
    ]) {
        msgs.push((Some(id), answer(info, 1, text)));
    }
    msgs.push((None, stage(Stage::Ranking)));
    for id in COUNCIL {
        msgs.push((Some(id), stage(Stage::Ranking)));
    }
    msgs
}

/// The whole council turn: alpha's ballot (tool), beta's (text), gamma's missing, each
/// followed by the running aggregate; then the chairman.
pub fn council_turn() -> Vec<Event> {
    let mut msgs = council_answered();
    let ballot = |order: &[&str], source| {
        EventMsg::Strategy(StrategyEvent::RankingSubmitted {
            order: ids(order),
            shown: Vec::new(),
            source,
        })
    };
    let aggregate = |standings, complete| {
        EventMsg::Strategy(StrategyEvent::RankingsAggregated {
            standings,
            missing: if complete {
                vec![(
                    AgentId::new("gamma"),
                    "no ranking before the timeout".into(),
                )]
            } else {
                Vec::new()
            },
            complete,
        })
    };
    msgs.push((
        Some("alpha"),
        ballot(&["beta", "gamma"], RankingSource::Tool),
    ));
    msgs.push((
        None,
        aggregate(
            vec![
                standing("beta", 1, 1),
                standing("gamma", 0, 1),
                standing("alpha", 0, 0),
            ],
            false,
        ),
    ));
    msgs.push((
        Some("beta"),
        ballot(&["alpha", "gamma"], RankingSource::Text),
    ));
    msgs.push((
        Some("gamma"),
        EventMsg::Strategy(StrategyEvent::RankingMissing {
            reason: "no ranking before the timeout".into(),
        }),
    ));
    msgs.push((
        None,
        aggregate(
            vec![
                standing("beta", 1, 1),
                standing("alpha", 1, 1),
                standing("gamma", 0, 2),
            ],
            true,
        ),
    ));
    msgs.push((
        None,
        EventMsg::Strategy(StrategyEvent::ChairmanChosen {
            chairman: AgentId::new("beta"),
            basis: ChairmanBasis::TopRanked,
        }),
    ));
    msgs.push((None, stage(Stage::Synthesis)));
    msgs.push((Some("beta"), stage(Stage::Synthesis)));
    numbered(msgs)
}

/// Two debate rounds of `pro` and `con`: each critiques the other, then revises.
pub fn debate_turn() -> Vec<Event> {
    let roster = roster(&DEBATERS);
    let mut msgs = vec![
        (None, turn_started(&DEBATERS, Strategy::Debate)),
        (None, stage(Stage::Answering)),
        (Some("pro"), answer(&roster[0], 1, "Cache everything.")),
        (Some("con"), answer(&roster[1], 1, "Cache nothing.")),
    ];
    for round in 1..=2u32 {
        for (me, other) in [("pro", "con"), ("con", "pro")] {
            msgs.push((Some(me), stage(Stage::Critique { round })));
            msgs.push((
                Some(me),
                EventMsg::Strategy(StrategyEvent::CritiqueSubmitted {
                    round,
                    targets: vec![AgentId::new(other)],
                    content: format!(
                        "Round {round}: {other} ignores invalidation.\nIt also never says \
                         how stale a read may be, which matters for every client that \
                         reads its own writes, and it skips the cost of a miss entirely."
                    ),
                }),
            ));
        }
        for (at, me) in DEBATERS.iter().enumerate() {
            msgs.push((Some(*me), stage(Stage::Revision { round })));
            msgs.push((
                Some(*me),
                answer(
                    &roster[at],
                    round as usize + 1,
                    &format!("{me}'s answer, revised in round {round}."),
                ),
            ));
        }
    }
    numbered(msgs)
}
