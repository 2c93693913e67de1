//! The import graph between module files, and its circles (groups of files that reach each
//! other through their imports).

use std::collections::{BTreeMap, BTreeSet};

use crate::paths::named_paths;
use crate::source::{ModPath, Module};

pub struct Graph {
    edges: BTreeMap<ModPath, BTreeSet<ModPath>>,
}

impl Graph {
    /// An arrow from each module to every other module file whose items it names (the longest
    /// module prefix of each path); the crate root is left out.
    pub fn of(modules: &BTreeMap<ModPath, Module>) -> Self {
        let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        for (here, module) in modules {
            let targets = edges.entry(here.clone()).or_default();
            for mut path in named_paths(here, &module.code) {
                while !path.is_empty() && !modules.contains_key(&path) {
                    path.pop();
                }
                if !path.is_empty() && &path != here {
                    targets.insert(path);
                }
            }
        }
        Self { edges }
    }

    pub fn edges(&self) -> impl Iterator<Item = (&ModPath, &ModPath)> {
        self.edges
            .iter()
            .flat_map(|(from, targets)| targets.iter().map(move |to| (from, to)))
    }
}

/// Strongly connected groups of more than one module (Tarjan's algorithm).
pub fn circles(graph: &Graph) -> Vec<Vec<ModPath>> {
    let mut search = Search {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for node in graph.edges.keys() {
        if !search.index.contains_key(node) {
            search.visit(node);
        }
    }
    search.found
}

struct Search<'a> {
    graph: &'a Graph,
    index: BTreeMap<&'a ModPath, usize>,
    low: BTreeMap<&'a ModPath, usize>,
    stack: Vec<&'a ModPath>,
    on_stack: BTreeSet<&'a ModPath>,
    next: usize,
    found: Vec<Vec<ModPath>>,
}

impl<'a> Search<'a> {
    fn visit(&mut self, node: &'a ModPath) {
        self.index.insert(node, self.next);
        self.low.insert(node, self.next);
        self.next += 1;
        self.stack.push(node);
        self.on_stack.insert(node);
        for target in self.graph.edges.get(node).into_iter().flatten() {
            if !self.index.contains_key(target) {
                self.visit(target);
                let low = self.low[node].min(self.low[target]);
                self.low.insert(node, low);
            } else if self.on_stack.contains(target) {
                let low = self.low[node].min(self.index[target]);
                self.low.insert(node, low);
            }
        }
        if self.low[node] == self.index[node] {
            let mut group = Vec::new();
            while let Some(member) = self.stack.pop() {
                self.on_stack.remove(member);
                group.push(member.clone());
                if member == node {
                    break;
                }
            }
            if group.len() > 1 {
                self.found.push(group);
            }
        }
    }
}
