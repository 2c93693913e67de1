//! Reading [`Task`] and [`TaskPlan`] through serde: both go through the plan parser, so a
//! task read this way is checked and normalised as a plan file's task is.

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::plan::parse::{parse_document, task_from_object};
use crate::plan::task::{Task, TaskPlan};

impl<'de> Deserialize<'de> for Task {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::deserialize(deserializer)?;
        task_from_object(object, 0).map_err(serde::de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for TaskPlan {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let document = parse_document(value).map_err(serde::de::Error::custom)?;
        Ok(Self {
            agent_id: document.agent_id.unwrap_or_default(),
            tasks: document.tasks,
            created_at: document.created_at.unwrap_or_default(),
            updated_at: document.updated_at.unwrap_or_default(),
        })
    }
}
