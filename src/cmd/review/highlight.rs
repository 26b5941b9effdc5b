//! Syntax colouring of Cg and slang text for the review pages, with syntect.
//!
//! One small grammar (`cg.sublime-syntax`, beside this file) serves both languages: Cg and
//! Vulkan GLSL share C's comments, preprocessor lines, literals and most keywords, and a
//! small grammar is what keeps a whole library fast to colour (syntect's bundled C
//! grammar with the pure-Rust regex engine took seven times as long on common-shaders).
//! The result is a list of lines, each a list of segments with an optional class name;
//! the page templates escape the text.
//!
//! Never produces markup itself and never fails: should the grammar not load or a line
//! not parse, the text comes back uncoloured.

use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxDefinition, SyntaxSet, SyntaxSetBuilder};

/// One run of text and its class (`None`: plain).
pub type Segment = (Option<&'static str>, String);
/// One line, without its line end.
pub type Line = Vec<Segment>;

/// The grammar loaded once, shared by every worker thread.
pub struct Highlighter {
    set: Option<SyntaxSet>,
    /// Scope prefix and class, the first match from the innermost scope wins.
    classes: Vec<(Scope, &'static str)>,
}

const GRAMMAR: &str = include_str!("cg.sublime-syntax");

const CLASSES: [(&str, &str); 7] = [
    ("comment", "hc"),
    ("meta.preprocessor", "hp"),
    ("string", "hs"),
    ("constant.numeric", "hn"),
    ("keyword", "hk"),
    ("storage.type", "ht"),
    ("entity.name.function", "hf"),
];

impl Highlighter {
    pub fn new() -> Highlighter {
        let set = SyntaxDefinition::load_from_str(GRAMMAR, true, None).ok().map(|def| {
            let mut builder = SyntaxSetBuilder::new();
            builder.add(def);
            builder.build()
        });
        let classes = CLASSES.iter().filter_map(|(s, c)| Some((Scope::new(s).ok()?, *c))).collect();
        Highlighter { set, classes }
    }

    /// `text` split into lines (`\n`, a trailing `\r` dropped), each coloured.
    pub fn lines(&self, text: &str) -> Vec<Line> {
        let syntax = self.set.as_ref().and_then(|s| Some((s, s.syntaxes().first()?)));
        let mut state = syntax.map(|(_, syn)| ParseState::new(syn));
        let mut stack = ScopeStack::new();
        let mut out = Vec::new();
        for raw in text.split_inclusive('\n') {
            let line = raw.trim_end_matches('\n').trim_end_matches('\r');
            let ops = match (&mut state, syntax) {
                (Some(st), Some((set, _))) => st.parse_line(raw, set).ok(),
                _ => None,
            };
            let Some(ops) = ops else {
                out.push(vec![(None, line.to_owned())]);
                continue;
            };
            let mut segments: Line = Vec::new();
            let mut at = 0;
            for (offset, op) in ops {
                let offset = offset.min(line.len());
                if offset > at && line.is_char_boundary(offset) && line.is_char_boundary(at) {
                    push(&mut segments, self.class(&stack), &line[at..offset]);
                    at = offset;
                }
                // An unbalanced pop cannot happen with a loaded grammar; ignore it if it does.
                let _ = stack.apply(&op);
            }
            if at < line.len() && line.is_char_boundary(at) {
                push(&mut segments, self.class(&stack), &line[at..]);
            }
            out.push(segments);
        }
        out
    }

    fn class(&self, stack: &ScopeStack) -> Option<&'static str> {
        stack
            .as_slice()
            .iter()
            .rev()
            .find_map(|scope| self.classes.iter().find(|(prefix, _)| prefix.is_prefix_of(*scope)).map(|(_, c)| *c))
    }
}

fn push(segments: &mut Line, class: Option<&'static str>, text: &str) {
    match segments.last_mut() {
        Some((c, t)) if *c == class => t.push_str(text),
        _ => segments.push((class, text.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes_of(text: &str) -> Vec<Vec<(Option<&'static str>, String)>> {
        Highlighter::new().lines(text)
    }

    #[test]
    fn colours_comments_keywords_and_numbers_and_keeps_the_text() {
        let text = "#include \"a.h\"\n/* one\n two */ uniform float4 x = 1.5; // end\r\nfloat4 f(float a) { return tex2D(s, a); }\n";
        let lines = classes_of(text);
        assert_eq!(lines.len(), 4);
        let joined: Vec<String> = lines.iter().map(|l| l.iter().map(|(_, t)| t.as_str()).collect()).collect();
        assert_eq!(
            joined,
            [
                "#include \"a.h\"",
                "/* one",
                " two */ uniform float4 x = 1.5; // end",
                "float4 f(float a) { return tex2D(s, a); }"
            ]
        );
        let class_of =
            |line: usize, word: &str| lines[line].iter().find(|(_, t)| t.contains(word)).and_then(|(c, _)| *c);
        assert_eq!(class_of(0, "#include"), Some("hp"));
        assert_eq!(class_of(1, "one"), Some("hc"));
        assert_eq!(class_of(2, "two"), Some("hc"), "the block comment carries over the line end");
        assert_eq!(class_of(2, "uniform"), Some("hk"));
        assert_eq!(class_of(2, "float4"), Some("ht"));
        assert_eq!(class_of(2, "1.5"), Some("hn"));
        assert_eq!(class_of(2, "// end"), Some("hc"));
        assert_eq!(class_of(3, "tex2D"), Some("hf"));
    }
}
