//! Name filters: case-insensitive substring search.

/// Case-insensitive substring search, the one rule for every name filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Needle {
    folded: String,
    ascii: bool,
}

impl Needle {
    /// A needle for `text` (compared in lower case).
    pub fn new(text: &str) -> Needle {
        let folded = text.to_lowercase();
        let ascii = folded.is_ascii();
        Needle { folded, ascii }
    }

    /// The needle as compared (lower case).
    pub fn as_str(&self) -> &str {
        &self.folded
    }

    /// Whether `hay` contains the needle, ignoring case.
    pub fn is_in(&self, hay: &str) -> bool {
        let n = self.folded.as_bytes();
        if n.is_empty() {
            return true;
        }
        if hay.is_ascii() {
            if !self.ascii {
                return false;
            }
            let h = hay.as_bytes();
            return h.len() >= n.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
        }
        hay.to_lowercase().contains(&self.folded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needles_ignore_case() {
        let n = Needle::new("carlsen");
        assert!(n.is_in("Carlsen, Magnus"));
        assert!(n.is_in("CARLSEN,M"));
        assert!(!n.is_in("Karlsen"));
        assert!(Needle::new("Ålund").is_in("Jessica ålund"));
        assert!(Needle::new("").is_in("anything"));
    }
}
