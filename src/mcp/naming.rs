//! Names MCP tools are offered under (`mcp__<server>__<tool>`), safe for every provider,
//! and the map back to the server and the tool's own name.

use std::collections::HashMap;

/// OpenAI rejects longer function names.
pub const MAX_NAME_LEN: usize = 64;

const PREFIX: &str = "mcp__";
/// `_` and eight hex digits.
const SUFFIX_LEN: usize = 9;

/// The name a model sees for `tool` of `server`.
///
/// Characters outside `[A-Za-z0-9_-]` become `_`. When that changed anything, or the name
/// is longer than [`MAX_NAME_LEN`], it is cut and ends in a hash of the original names, so
/// `a.b` and `a_b` stay apart.
pub fn full_name(server: &str, tool: &str) -> String {
    full_name_salted(server, tool, 0)
}

fn full_name_salted(server: &str, tool: &str, salt: u32) -> String {
    let plain = format!("{PREFIX}{}__{}", sanitize(server), sanitize(tool));
    let lossless = plain.len() <= MAX_NAME_LEN
        && sanitize(server) == server
        && sanitize(tool) == tool
        && salt == 0;
    if lossless {
        return plain;
    }
    let mut cut = plain;
    cut.truncate(MAX_NAME_LEN - SUFFIX_LEN);
    format!("{cut}_{:08x}", hash(server, tool, salt))
}

fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '_' | '-' => c,
            _ => '_',
        })
        .collect()
}

/// FNV-1a, folded to 32 bits: stable across runs and builds, unlike `DefaultHasher`.
fn hash(server: &str, tool: &str, salt: u32) -> u32 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = server
        .bytes()
        .chain([0])
        .chain(tool.bytes())
        .chain(salt.to_le_bytes());
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (hash ^ (hash >> 32)) as u32
}

/// Which server and tool a full name stands for.
#[derive(Clone, Debug, Default)]
pub struct ToolNames {
    by_full: HashMap<String, (String, String)>,
}

impl ToolNames {
    /// Registers `tool` of `server` and returns its full name, unique among those
    /// registered so far (a clash gets a differently salted hash).
    pub fn insert(&mut self, server: &str, tool: &str) -> String {
        let mut salt = 0;
        loop {
            let name = full_name_salted(server, tool, salt);
            match self.by_full.get(&name) {
                Some((s, t)) if s == server && t == tool => return name,
                Some(_) => salt += 1,
                None => {
                    self.by_full
                        .insert(name.clone(), (server.to_owned(), tool.to_owned()));
                    return name;
                }
            }
        }
    }

    /// The server name and the tool's own name behind `full`.
    pub fn resolve(&self, full: &str) -> Option<(&str, &str)> {
        self.by_full
            .get(full)
            .map(|(server, tool)| (server.as_str(), tool.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_are_kept_as_they_are() {
        assert_eq!(full_name("fs", "read_file"), "mcp__fs__read_file");
        assert_eq!(
            full_name("every-thing", "get-sum"),
            "mcp__every-thing__get-sum"
        );
    }

    #[test]
    fn odd_characters_become_underscores_and_stay_distinct() {
        let dotted = full_name("a.b", "list files");
        assert!(dotted.starts_with("mcp__a_b__list_files_"), "{dotted}");
        assert!(dotted.len() <= MAX_NAME_LEN);
        assert_ne!(dotted, full_name("a_b", "list_files"));
        assert!(
            dotted
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        );
    }

    #[test]
    fn long_names_are_capped_at_64_and_stay_unique() {
        let tool_a = format!("{}_a", "x".repeat(80));
        let tool_b = format!("{}_b", "x".repeat(80));
        let a = full_name("server", &tool_a);
        let b = full_name("server", &tool_b);
        assert_eq!(a.len(), MAX_NAME_LEN);
        assert_eq!(b.len(), MAX_NAME_LEN);
        assert_ne!(a, b);
        assert_eq!(full_name("server", &tool_a), a, "stable");
    }

    #[test]
    fn the_map_leads_back_to_server_and_tool() {
        let mut names = ToolNames::default();
        let full = names.insert("my.server", "do it");
        assert_eq!(names.resolve(&full), Some(("my.server", "do it")));
        assert_eq!(
            names.insert("my.server", "do it"),
            full,
            "same pair, same name"
        );
        assert_eq!(names.resolve("mcp__nope__x"), None);
    }

    #[test]
    fn a_clash_between_plain_names_gets_a_salted_name() {
        let mut names = ToolNames::default();
        let first = names.insert("a__b", "c");
        let second = names.insert("a", "b__c");
        assert_eq!(first, "mcp__a__b__c");
        assert_ne!(first, second);
        assert_eq!(names.resolve(&second), Some(("a", "b__c")));
    }
}
