//! The consensus map of 3 and 8 agents, mid-turn and decided, at 80×24 and 160×48; its
//! leader is the votes view's, ties included.

use crate::protocol::{
    AgentId, AgentInfo, AgentStatus, AnswerLabel, Event, EventMsg, Mode, VoteCount, WinnerBasis,
};
use crate::tui::choices::NextQuestion;
use crate::tui::modal::content::page;
use crate::tui::render::tests::{both_sizes, draw, modal_view, screen_text};
use crate::tui::state::UiState;
use crate::tui::test_support::event;
use crate::tui::theme::Theme;
use crate::tui::view::{Modal, ModalKind};

const EIGHT: [&str; 8] = [
    "scout", "scholar", "critic", "planner", "coder", "tester", "writer", "editor",
];

/// A hand-made turn of `names`, fed to the state one event at a time, with the standing
/// tally every vote carries as coordination would count it.
struct Turn {
    roster: Vec<AgentInfo>,
    state: UiState,
    answers: Vec<(String, u32)>,
    votes: Vec<(String, String)>,
    seq: u64,
}

impl Turn {
    fn new(names: &[&str]) -> Self {
        let roster = AgentInfo::roster(
            names
                .iter()
                .map(|id| (AgentId::new(*id), "scripted".into(), "m".into())),
        );
        let mut turn = Self {
            roster: roster.clone(),
            state: UiState::default(),
            answers: Vec::new(),
            votes: Vec::new(),
            seq: 0,
        };
        turn.apply(
            None,
            EventMsg::TurnStarted {
                options: Default::default(),
                question: "How should the service cache reads?".into(),
                mode: Mode::Normal,
                agents: roster,
                log_dir: None,
            },
        );
        turn
    }

    fn apply(&mut self, agent: Option<&str>, msg: EventMsg) {
        self.seq += 1;
        let event: Event = event(self.seq, agent, msg);
        self.state.apply(&event);
    }

    fn info(&self, name: &str) -> AgentInfo {
        let found = self.roster.iter().find(|info| info.id.as_str() == name);
        found.cloned().unwrap()
    }

    fn working(&mut self, name: &str) {
        let status = AgentStatus::Streaming;
        self.apply(Some(name), EventMsg::AgentStatus { status });
    }

    /// `name` answers; every vote stands reset, as a new answer resets them.
    fn answer(&mut self, name: &str, content: &str) {
        let info = self.info(name);
        let count = match self.answers.iter_mut().find(|(author, _)| author == name) {
            Some((_, count)) => {
                *count += 1;
                *count
            }
            None => {
                self.answers.push((name.to_string(), 1));
                1
            }
        };
        let reset: Vec<AgentId> = self
            .votes
            .drain(..)
            .map(|(voter, _)| AgentId::new(voter))
            .collect();
        self.apply(
            Some(name),
            EventMsg::AnswerSubmitted {
                label: AnswerLabel::answer(&info.anon_id, count as usize),
                anon_id: info.anon_id,
                content: content.into(),
                votes_reset: Some(reset),
            },
        );
        let status = AgentStatus::Answered;
        self.apply(Some(name), EventMsg::AgentStatus { status });
    }

    fn tally(&self) -> Vec<VoteCount> {
        self.roster
            .iter()
            .filter(|info| self.answers.iter().any(|(a, _)| a == info.id.as_str()))
            .map(|info| {
                let voters: Vec<AgentId> = self
                    .votes
                    .iter()
                    .filter(|(_, target)| target == info.id.as_str())
                    .map(|(voter, _)| AgentId::new(voter))
                    .collect();
                VoteCount {
                    agent: info.id.clone(),
                    anon_id: info.anon_id.clone(),
                    votes: u32::try_from(voters.len()).unwrap(),
                    voters,
                }
            })
            .collect()
    }

    fn vote(&mut self, voter: &str, target: &str) {
        self.votes.push((voter.into(), target.into()));
        let info = self.info(target);
        let count = self.answers.iter().find(|(a, _)| a == target).unwrap().1;
        let standing = Some(self.tally());
        self.apply(
            Some(voter),
            EventMsg::VoteCast {
                target: info.id.clone(),
                target_label: AnswerLabel::answer(&info.anon_id, count as usize),
                target_anon: info.anon_id,
                reason: format!("{target}'s plan is sound"),
                standing,
            },
        );
        let status = AgentStatus::Voted;
        self.apply(Some(voter), EventMsg::AgentStatus { status });
    }

    fn failed(&mut self, name: &str) {
        let reason = "the model call failed".into();
        self.apply(Some(name), EventMsg::AgentKilled { reason });
    }

    fn decide(&mut self, winner: &str) {
        let info = self.info(winner);
        let tally = self.tally();
        self.apply(
            Some(winner),
            EventMsg::WinnerSelected {
                winner: info.id,
                winner_anon: info.anon_id,
                tally,
                is_tie: false,
                basis: WinnerBasis::Votes,
            },
        );
    }
}

/// Three agents: scout and scholar answered, scout voted for scholar, scholar is on its
/// second answer, critic still works on its first.
fn three_mid_turn() -> Turn {
    let mut turn = Turn::new(&EIGHT[..3]);
    for name in &EIGHT[..3] {
        turn.working(name);
    }
    turn.answer("scout", "# Plan\nCache reads in memory for a minute.");
    turn.answer(
        "scholar",
        "A write-through cache in front of the database keeps reads fast and never stale.",
    );
    turn.vote("scout", "scholar");
    turn.working("scholar");
    turn
}

/// Eight agents: five answered, three voted (two for scout), writer failed, the rest work.
fn eight_mid_turn() -> Turn {
    let mut turn = Turn::new(&EIGHT);
    for name in EIGHT {
        turn.working(name);
    }
    for name in &EIGHT[..5] {
        turn.answer(
            name,
            &format!("{name}'s plan: cache reads where {name} measured them."),
        );
    }
    turn.vote("critic", "scout");
    turn.vote("coder", "scout");
    turn.vote("planner", "scholar");
    turn.failed("writer");
    turn
}

fn open_map(state: &UiState) -> String {
    screen_text(&draw(state, &modal_view(ModalKind::ConsensusMap), 160, 48))
}

#[test]
fn three_agents_mid_turn_and_decided() {
    let mut turn = three_mid_turn();
    let screen = open_map(&turn.state);
    for wanted in [
        "scholar leads with 1 vote",
        "agent2.1",
        "voted → scholar",
        "scout → scholar (1)",
        "working (2): scholar, critic",
        "done (1): scout",
        "A write-through cache",
    ] {
        assert!(screen.contains(wanted), "{wanted}: {screen}");
    }
    let view = modal_view(ModalKind::ConsensusMap);
    both_sizes("consensus_map_3_mid_turn", &turn.state, &view);

    turn.answer("critic", "Cache nothing until it is measured.");
    turn.vote("critic", "scholar");
    turn.vote("scout", "scholar");
    turn.vote("scholar", "scholar");
    turn.decide("scholar");
    let screen = open_map(&turn.state);
    for wanted in [
        "scholar wins with 3 votes",
        "critic, scout, scholar → scholar (3)",
    ] {
        assert!(screen.contains(wanted), "{wanted}: {screen}");
    }
    both_sizes("consensus_map_3_decided", &turn.state, &view);
}

#[test]
fn eight_agents_mid_turn_and_decided() {
    let mut turn = eight_mid_turn();
    let screen = open_map(&turn.state);
    for wanted in [
        "scout leads with 2 votes",
        "critic, coder → scout (2)",
        "planner → scholar (1)",
        "failed (1): writer",
        "waiting (2): scout, scholar",
        "working (2): tester, editor",
        "agent5.1",
    ] {
        assert!(screen.contains(wanted), "{wanted}: {screen}");
    }
    let view = modal_view(ModalKind::ConsensusMap);
    both_sizes("consensus_map_8_mid_turn", &turn.state, &view);

    for name in ["tester", "editor"] {
        turn.answer(name, &format!("{name}: a read-through cache with a TTL."));
    }
    for (voter, target) in [
        ("scout", "tester"),
        ("scholar", "tester"),
        ("critic", "tester"),
        ("planner", "scout"),
        ("coder", "tester"),
        ("tester", "tester"),
        ("editor", "scout"),
    ] {
        turn.vote(voter, target);
    }
    turn.decide("tester");
    let screen = open_map(&turn.state);
    assert!(screen.contains("tester wins with 5 votes"), "{screen}");
    both_sizes("consensus_map_8_decided", &turn.state, &view);
}

/// The name on the line the votes view crowns, and the name the map says leads.
fn leaders(state: &UiState) -> (Option<String>, Option<String>) {
    let votes = open_modal(state, ModalKind::Votes);
    let crowned = votes
        .iter()
        .find(|line| line.contains("👑 leader"))
        .and_then(|line| line.split_whitespace().next().map(str::to_string));
    let map = open_modal(state, ModalKind::ConsensusMap);
    let leads = map
        .iter()
        .find(|line| line.contains(" leads with "))
        .and_then(|line| line.split("👑 ").nth(1))
        .and_then(|rest| rest.split_whitespace().next().map(str::to_string));
    (crowned, leads)
}

fn open_modal(state: &UiState, kind: ModalKind) -> Vec<String> {
    let view = modal_view(kind);
    let next = NextQuestion::default();
    let (lines, _) = page(
        Modal::new(kind),
        state,
        &view,
        &next,
        &Theme::default(),
        100,
        200,
    );
    lines
        .iter()
        .map(|line| {
            line.spans
                .iter()
                .map(|span| span.content.as_ref())
                .collect()
        })
        .collect()
}

#[test]
fn the_map_leads_with_the_votes_views_leader() {
    let mut turn = eight_mid_turn();
    let (crowned, leads) = leaders(&turn.state);
    assert_eq!(crowned.as_deref(), Some("scout"));
    assert_eq!(leads, crowned);
    // scholar draws level: a tie, which config order gives to scout; the votes view
    // crowns nobody and the map says it is a tie.
    turn.vote("scout", "scholar");
    let (crowned, _) = leaders(&turn.state);
    assert_eq!(crowned, None);
    assert_eq!(
        turn.state
            .votes
            .leader()
            .map(|l| (l.agent.to_string(), l.tied)),
        Some(("scout".into(), true))
    );
    assert!(open_map(&turn.state).contains("a tie: config order puts it first"));
    // scholar pulls ahead: both say so.
    turn.vote("tester", "scholar");
    let (crowned, leads) = leaders(&turn.state);
    assert_eq!(crowned.as_deref(), Some("scholar"));
    assert_eq!(leads, crowned);
}
