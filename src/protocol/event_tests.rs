//! Events round-trip through JSON with their type tag.

use super::*;

#[test]
fn events_round_trip_through_json_with_a_type_tag() {
    let event = Event {
        seq: 7,
        at: Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: Some(AgentId::new("scout")),
        msg: EventMsg::TextDelta {
            text: "Paris".into(),
        },
    };
    let line = serde_json::to_string(&event).unwrap();
    assert!(line.contains(r#""type":"text_delta""#), "{line}");
    let back: Event = serde_json::from_str(&line).unwrap();
    assert_eq!(back, event);
}
