//! Descriptive words read in every form, resolved and written back.

use super::family::{ENGLISH, LATIN};
use super::*;

#[test]
fn forms_parse() {
    for s in [
        "P-K4",
        "N-KB3",
        "N-B3",
        "Kt-B3",
        "PxP",
        "NxP",
        "KPxP",
        "PxQP",
        "BxN",
        "NxP(Q5)",
        "N(KB3)xP(K5)",
        "R(KB1)-K1",
        "QR-K1",
        "KR-Q1",
        "R1-Q1",
        "P-K8=Q",
        "P-K8(Q)",
        "P-Q8Q",
        "QKt-B3",
        "KKtP-KKt3",
        "K-Q2",
        "Q-KR5",
        "QxQ",
        "PxR=Q",
        "P-QN8(Kt)",
        // As books also print the mover's square: after a slash, or its
        // rank in parentheses; the captured man's square after a slash.
        "N/1-B3",
        "Kt/5-B3",
        "R/Q1-Q3",
        "N/KB3xP",
        "NxP/K4",
        "N(5)-B3",
        "P-K8/Q",
    ] {
        assert!(ENGLISH.parse(s.as_bytes()).is_some(), "{s}");
    }
    for s in [
        "P-K9", "P-", "PxP(Q9)", "N-K8=Q", "K4", "P-K4Q3", "e4", "Nf3", "PxK4", "N/9-B3",
        "N(9)-B3", "N/-B3", "NxP/K9", "N(5-B3",
    ] {
        assert!(ENGLISH.parse(s.as_bytes()).is_none(), "{s}");
    }
    // The Latin forms of the sources (crates/notation/README.md).
    for s in [
        "P4R",
        "C3AR",
        "A5CD",
        "D7T",
        "P8C=D",
        "AxT",
        "CRxP",
        "CDxP",
        "T1xP",
        "T7xP",
        "C7-5C",
        "C3-5C",
        "PRxP",
        "PCxPA",
        "PxPT",
        "PTxP",
        "PAxPC",
        "CRXP",
        "PAXPC",
        "T5FR",
        "PxC",
        "P8D=D",
        "PxC:D",
        "TD3FR",
        "FxCD",
        "T4CR-2CR",
        "CD-2D",
        "CD2D",
        "T-AD3",
        "CxP5D",
        "C3ARxP5R",
        "T1AR-1R",
        "P8R=D",
        "PTD(8TD)xPCD(8CD)=(D)",
    ] {
        assert!(LATIN.parse(s.as_bytes()).is_some(), "{s}");
    }
    for s in ["P-K4", "N-KB3", "P4", "C3", "R-K1", "P4R4", "CxP9D", "Cf3"] {
        assert!(LATIN.parse(s.as_bytes()).is_none(), "{s}");
    }
    let d = LATIN.parse(b"PCxPA").expect("parses");
    assert_eq!(d.man.files, 0b0100_0010);
    assert_eq!(d.captured.map(|c| c.files), Some(0b0010_0100));
    let d = LATIN.parse(b"CRxP").expect("parses");
    assert_eq!(d.man.side, Some(Side::King));
    let d = LATIN.parse(b"T4CR-2CR").expect("parses");
    assert_eq!(d.from.and_then(|p| p.rank), Some(3));
    let d = ENGLISH.parse(b"KR-Q1").expect("parses");
    assert_eq!(d.man.side, Some(Side::King));
    assert_eq!(d.man.role, Role::Rook);
    let d = ENGLISH.parse(b"QBPxP").expect("parses");
    assert_eq!(d.man.role, Role::Pawn);
    assert_eq!(d.man.files, 1 << 2);
    let d = ENGLISH.parse(b"N/1-B3").expect("parses");
    assert_eq!(d.from.and_then(|p| p.rank), Some(0));
    assert_eq!(d.from.map(|p| p.files), Some(ALL_FILES));
    let d = ENGLISH.parse(b"R/Q1-Q3").expect("parses");
    assert_eq!(d.from.map(|p| p.files), Some(1 << 3));
    let d = ENGLISH.parse(b"NxP/K4").expect("parses");
    assert_eq!(d.to.map(|p| p.files), Some(1 << 4));
    assert_eq!(ENGLISH.parse(b"N(5)-B3"), ENGLISH.parse(b"N5-B3"));
    let d = ENGLISH.parse(b"PxQP").expect("parses");
    assert_eq!(d.captured.map(|c| c.files), Some(1 << 3));
}
