//! The options of a position counted and listed a page at a time, without generating the ones
//! before the page: `moves nim 1000000000000000000,3` has 10^18 + 3 options, and the first
//! hundred cost what a hundred cost.
//!
//! A position's options, in the order of [`Ruleset::options`], are cut into segments (one heap's
//! moves, one number of tokens taken, the pushes, …) whose lengths are known by arithmetic and
//! whose `i`-th option is built directly. Rulesets whose options are only known by generating
//! them (3-Euclid, which drops repeated options, and Cram) are not paged: [`option_count`] says
//! `None` and the caller enumerates, within its budget.

use std::rc::Rc;

use super::euclid::EuclidVariant;
use super::heaps::{divisors, gcd};
use super::one_heap::{OctalCode, OctalOption, collection_after, two_part_top};
use crate::game::{Position, Ruleset};

/// A run of consecutive options: `len` of them, the `i`-th built by `make(i)`.
struct Segment {
    len: u128,
    make: Box<dyn Fn(u128) -> Position>,
}

impl Segment {
    fn new(len: u128, make: impl Fn(u128) -> Position + 'static) -> Self {
        Self {
            len,
            make: Box::new(make),
        }
    }
}

/// Positions with more options than this (by an upper bound known before generating them) are
/// not enumerated: their value is still reported, their options are not.
pub const ENUMERATE_LIMIT: u64 = 1 << 21;

/// An upper bound on the number of options of `p` (and on the work of generating them), known
/// without generating them. Used to refuse enumerating absurdly many options.
pub fn option_bound(ruleset: &Ruleset, p: &Position) -> u64 {
    let sum = |h: &[u64]| h.iter().fold(0u64, |s, &x| s.saturating_add(x));
    match (ruleset, p) {
        (Ruleset::Push(..) | Ruleset::Misere(_), Position::Pushed { choice, inner }) => ruleset
            .push_successors()
            .get(*choice as usize)
            .map_or(0, |s| option_bound(s, inner)),
        (Ruleset::Push(..), p) => {
            option_bound(ruleset.base().0, p).saturating_add(ruleset.push_successors().len() as u64)
        }
        (Ruleset::Misere(r), p) => option_bound(r, p),
        (Ruleset::Sum(a, b), Position::Sum(pa, pb)) => option_bound(a, pa).saturating_add(option_bound(b, pb)),
        (_, Position::Fib { n, q }) => (*n).min(*q),
        (_, Position::Board(_)) => 2 * super::cram_board::MAX_CELLS as u64,
        (Ruleset::Subtraction(s), Position::Heaps(h)) => (s.len() as u64).saturating_mul(h.len() as u64),
        (Ruleset::Tag(k), Position::Heaps(h)) => (*k).min(sum(h)).saturating_mul(h.len() as u64),
        // at most 2√n divisors a heap
        (Ruleset::Divisor, Position::Heaps(h)) => h
            .iter()
            .fold(0u64, |s, &n| s.saturating_add(n.isqrt().saturating_mul(2))),
        (Ruleset::Cdn, Position::Heaps(h)) => {
            let g = h.iter().fold(0, |g, &x| gcd(g, x));
            g.isqrt().saturating_add(h.len() as u64 * 2 * g.isqrt())
        }
        (Ruleset::Euclid(_) | Ruleset::Zeruclid | Ruleset::Euclid3, Position::Heaps(h)) => {
            let m = h.iter().copied().filter(|&x| x > 0).min().unwrap_or(1);
            (sum(h) / m).saturating_mul(h.len() as u64)
        }
        (Ruleset::Octal(code), Position::Heaps(h)) => sum(h).saturating_mul(code.max_take() + 1),
        // a typed rule's options: at least the estimate's lower bound, known before any is
        // generated (the listing itself is bounded by the budget as it runs)
        (Ruleset::Typed(rule), Position::Heaps(h)) => {
            let positions: Vec<&[u64]> = if rule.arity() == 1 {
                h.iter().map(std::slice::from_ref).collect()
            } else {
                vec![h.as_slice()]
            };
            positions.into_iter().fold(0u64, |s, q| {
                let lower = rule.estimate(&super::typed::estimate::exact(q)).options.lower;
                s.saturating_add(u64::try_from(lower).unwrap_or(u64::MAX))
            })
        }
        (_, Position::Heaps(h)) => sum(h).saturating_mul(2),
        _ => 0,
    }
}

/// How many options `p` (a legal position of `ruleset`) has, counted without generating them;
/// `None` when this ruleset's options are only known by generating them.
pub fn option_count(ruleset: &Ruleset, p: &Position) -> Option<u128> {
    segments(ruleset, p).map(|s| s.iter().map(|s| s.len).fold(0u128, u128::saturating_add))
}

/// Appends the options number `offset .. offset + limit` of `p` (fewer at the end), in the order
/// of [`Ruleset::options`]. Returns `false` (appending nothing) when the ruleset is not paged.
pub fn options_page(ruleset: &Ruleset, p: &Position, offset: u128, limit: usize, out: &mut Vec<Position>) -> bool {
    let Some(segments) = segments(ruleset, p) else {
        return false;
    };
    let mut skip = offset;
    let mut left = limit as u128;
    for s in segments {
        if left == 0 {
            break;
        }
        if skip >= s.len {
            skip -= s.len;
            continue;
        }
        let take = (s.len - skip).min(left);
        out.extend((skip..skip + take).map(|i| (s.make)(i)));
        left -= take;
        skip = 0;
    }
    true
}

fn heaps_with(h: &Rc<[u64]>, i: usize, v: u64) -> Position {
    let mut o = h.to_vec();
    o[i] = v;
    Position::Heaps(o)
}

/// The segments of `p`'s options, or `None` for a ruleset that is not paged.
fn segments(ruleset: &Ruleset, p: &Position) -> Option<Vec<Segment>> {
    match (ruleset, p) {
        (Ruleset::Push(..) | Ruleset::Misere(_), Position::Pushed { choice, inner }) => {
            let succ = ruleset.push_successors();
            let s = succ.get(*choice as usize)?;
            let choice = *choice;
            Some(wrap(segments(s, inner)?, move |o| Position::Pushed {
                choice,
                inner: Box::new(o),
            }))
        }
        (Ruleset::Push(..), p) => {
            let mut out = segments(ruleset.base().0, p)?;
            let pushes = ruleset.push_count() as u128;
            let board = Rc::new(p.clone());
            out.push(Segment::new(pushes, move |i| Position::Pushed {
                choice: i as u8,
                inner: Box::new((*board).clone()),
            }));
            Some(out)
        }
        (Ruleset::Misere(r), p) => segments(r, p),
        (Ruleset::Sum(a, b), Position::Sum(pa, pb)) => {
            let (pa_rc, pb_rc) = (Rc::new((**pa).clone()), Rc::new((**pb).clone()));
            let mut out = wrap(segments(a, pa)?, move |o| {
                Position::Sum(Box::new(o), Box::new((*pb_rc).clone()))
            });
            out.extend(wrap(segments(b, pb)?, move |o| {
                Position::Sum(Box::new((*pa_rc).clone()), Box::new(o))
            }));
            Some(out)
        }
        (Ruleset::FibonacciNim, &Position::Fib { n, q }) => Some(vec![Segment::new(q.min(n) as u128, move |i| {
            let k = i as u64 + 1;
            Position::Fib {
                n: n - k,
                q: (2 * k).min(n - k),
            }
        })]),
        (leaf, Position::Heaps(h)) => heap_segments(leaf, h),
        _ => None,
    }
}

/// Wraps every option of `segments` (options of a part) into an option of the whole.
fn wrap(segments: Vec<Segment>, f: impl Fn(Position) -> Position + 'static) -> Vec<Segment> {
    let f = Rc::new(f);
    segments
        .into_iter()
        .map(|s| {
            let f = f.clone();
            let make = s.make;
            Segment::new(s.len, move |i| f(make(i)))
        })
        .collect()
}

fn heap_segments(leaf: &Ruleset, h: &[u64]) -> Option<Vec<Segment>> {
    let heaps: Rc<[u64]> = h.into();
    let per_heap = |len: &dyn Fn(u64) -> u128, value: Rc<dyn Fn(u64, u128) -> u64>| -> Vec<Segment> {
        (0..h.len())
            .map(|i| {
                let (heaps, value) = (heaps.clone(), value.clone());
                Segment::new(len(h[i]), move |j| heaps_with(&heaps, i, value(heaps[i], j)))
            })
            .collect()
    };
    Some(match leaf {
        Ruleset::Nim => per_heap(&|n| n as u128, Rc::new(|_: u64, j: u128| j as u64)),
        Ruleset::Wythoff => {
            let (a, b) = (h[0], h[1]);
            vec![
                Segment::new(a as u128, move |x| Position::Heaps(vec![x as u64, b])),
                Segment::new(b as u128, move |y| Position::Heaps(vec![a, y as u64])),
                Segment::new(a.min(b) as u128, move |k| {
                    let k = k as u64 + 1;
                    Position::Heaps(vec![a - k, b - k])
                }),
            ]
        }
        Ruleset::Euclid(v) => euclid_segments(*v, h[0], h[1]),
        Ruleset::Zeruclid => {
            let m = h.iter().copied().filter(|&x| x > 0).min().unwrap_or(0);
            if m == 0 {
                Vec::new()
            } else {
                per_heap(
                    &|n| (n / m) as u128,
                    Rc::new(move |n: u64, j: u128| n - (j as u64 + 1) * m),
                )
            }
        }
        Ruleset::Cdn => {
            let g = h.iter().fold(0, |g, &x| gcd(g, x));
            if g == 0 {
                Vec::new()
            } else {
                let ds: Rc<[u64]> = divisors(g).into();
                let counts = ds.clone();
                per_heap(
                    &|n| counts.partition_point(|&d| d <= n) as u128,
                    Rc::new(move |n: u64, j: u128| n - ds[j as usize]),
                )
            }
        }
        Ruleset::Subtraction(s) => {
            let set: Rc<[u64]> = Rc::from(&s[..]);
            let counts = set.clone();
            per_heap(
                &|n| counts.partition_point(|&x| x <= n) as u128,
                Rc::new(move |n: u64, j: u128| n - set[j as usize]),
            )
        }
        Ruleset::Tag(k) => {
            let k = *k;
            per_heap(&|n| n.min(k) as u128, Rc::new(|n: u64, j: u128| n - (j as u64 + 1)))
        }
        Ruleset::Divisor => {
            // one factorisation per distinct heap; a heap's options are n − d, d < n ascending
            let mut segs = Vec::with_capacity(h.len());
            for (i, &n) in h.iter().enumerate() {
                let ds: Rc<[u64]> = if n > 1 {
                    let mut d = divisors(n);
                    d.pop();
                    d.into()
                } else {
                    Rc::new([])
                };
                let heaps = heaps.clone();
                segs.push(Segment::new(ds.len() as u128, move |j| {
                    heaps_with(&heaps, i, heaps[i] - ds[j as usize])
                }));
            }
            segs
        }
        Ruleset::Octal(code) => octal_segments(code, &heaps),
        _ => return None,
    })
}

fn euclid_segments(v: EuclidVariant, a: u64, b: u64) -> Vec<Segment> {
    let (lo, hi) = (a.min(b), a.max(b));
    let reduce = move |k: u64| {
        let rest = hi - k * lo;
        Position::Heaps(if a <= b { vec![a, rest] } else { vec![rest, b] })
    };
    let multiples = |count: u64| vec![Segment::new(count as u128, move |i| reduce(i as u64 + 1))];
    match v {
        EuclidVariant::ColeDavie => {
            if lo == 0 {
                Vec::new()
            } else if a == b {
                vec![Segment::new(2, move |i| {
                    Position::Heaps(if i == 0 { vec![a, 0] } else { vec![0, a] })
                })]
            } else {
                multiples(hi / lo)
            }
        }
        EuclidVariant::Grossman | EuclidVariant::Zero => match (hi.saturating_sub(1)).checked_div(lo) {
            Some(count) => multiples(count),
            None => {
                let n = u128::from(hi > 0 && v == EuclidVariant::Zero);
                vec![Segment::new(n, |_| Position::Heaps(vec![0, 0]))]
            }
        },
        EuclidVariant::Multiple => {
            if lo == 0 || hi.is_multiple_of(lo) {
                Vec::new()
            } else {
                multiples(hi / lo)
            }
        }
    }
}

/// Octal options of a collection: per distinct heap size (its first heap), per number taken,
/// no heap, one heap, the two-heap splits and the three-heap splits, as
/// [`OctalCode::options`] orders them.
fn octal_segments(code: &OctalCode, heaps: &Rc<[u64]>) -> Vec<Segment> {
    let mut out = Vec::new();
    for (i, &n) in heaps.iter().enumerate() {
        if heaps[..i].contains(&n) {
            continue;
        }
        for m in code.moves() {
            let (k, d) = (m.take, m.digit);
            if k > n {
                break;
            }
            let rest = n - k;
            let after = {
                let heaps = heaps.clone();
                move |o: OctalOption| Position::Heaps(collection_after(&heaps, i, o))
            };
            if d & 1 != 0 && rest == 0 {
                let after = after.clone();
                out.push(Segment::new(1, move |_| after(OctalOption::Gone)));
            }
            if d & 2 != 0 && rest >= 1 {
                let after = after.clone();
                out.push(Segment::new(1, move |_| after(OctalOption::One(rest))));
            }
            if d & 4 != 0 && rest >= 2 {
                let after = after.clone();
                out.push(Segment::new(two_part_top(rest, m.unequal) as u128, move |j| {
                    let x = j as u64 + 1;
                    after(OctalOption::Two(x, rest - x))
                }));
            }
            if d & 8 != 0 && rest >= 3 {
                out.push(Segment::new(three_part_count(rest, rest / 3), move |j| {
                    let (x, y) = nth_three_parts(rest, j);
                    after(OctalOption::Three(x, y, rest - x - y))
                }));
            }
        }
    }
    out
}

/// Σ_{t=0}^{t_end−1} ⌊t/2⌋ = ⌊(t_end − 1)²/4⌋.
fn half_floor_sum(t_end: u128) -> u128 {
    if t_end == 0 { 0 } else { (t_end - 1) * (t_end - 1) / 4 }
}

/// The number of splits of `r` into `x ≤ y ≤ z`, all ≥ 1, with `x ≤ x_max`: for each `x`,
/// `y` runs over `x..=⌊(r−x)/2⌋`.
fn three_part_count(r: u64, x_max: u64) -> u128 {
    let (r, x_max) = (r as u128, (x_max as u128).min(r as u128 / 3));
    if x_max == 0 {
        return 0;
    }
    // Σ_{x=1}^{X} (⌊(r−x)/2⌋ − x + 1), the floor terms summed over t = r−X .. r−1
    let floors = half_floor_sum(r) - half_floor_sum(r - x_max);
    floors + x_max - x_max * (x_max + 1) / 2
}

/// The `j`-th three-part split `(x, y)` of `r` in the order of [`OctalCode::options`].
fn nth_three_parts(r: u64, j: u128) -> (u64, u64) {
    // the least x whose splits up to x cover index j
    let (mut lo, mut hi) = (1u64, (r / 3).max(1));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if three_part_count(r, mid) > j {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let x = lo;
    let before = three_part_count(r, x - 1);
    (x, x + (j - before) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page of every position, concatenated, is the full option list.
    fn pages_match(rules: &str, positions: &[&str]) {
        let r: Ruleset = rules.parse().unwrap();
        for text in positions {
            let p = r.parse_position(text).unwrap_or_else(|e| panic!("{rules} {text}: {e}"));
            let mut all = Vec::new();
            r.options(&p, &mut all);
            assert_eq!(option_count(&r, &p), Some(all.len() as u128), "{rules} {text}");
            for page in [1, 2, 3, 7, 1000] {
                let mut paged = Vec::new();
                let mut offset = 0u128;
                loop {
                    let before = paged.len();
                    assert!(options_page(&r, &p, offset, page, &mut paged));
                    if paged.len() == before {
                        break;
                    }
                    offset += (paged.len() - before) as u128;
                }
                assert_eq!(paged, all, "{rules} {text} in pages of {page}");
            }
        }
    }

    #[test]
    fn pages_are_the_options_in_order() {
        pages_match("nim", &["3,5,7", "0", "0,4"]);
        pages_match("wythoff", &["3,5", "0,0", "4,4"]);
        pages_match("euclid", &["11,27", "4,4", "0,3", "27,11"]);
        pages_match("grossman", &["3,7", "4,4", "9,3"]);
        pages_match("euclid0", &["0,5", "0,0", "5,12"]);
        pages_match("m-euclid", &["3,9", "4,11"]);
        pages_match("zeruclid", &["2,3,5", "0,0,4", "0,0"]);
        pages_match("cdn", &["4,6", "12,18,30", "0,0", "0,8"]);
        pages_match("sub(1,3,4)", &["5", "2", "5,7,0"]);
        pages_match("tag(3)", &["10", "2,9"]);
        pages_match("divisor", &["12", "1", "12,30,7"]);
        pages_match("fibonacci-nim", &["20", "20:5", "0:0"]);
        pages_match("octal(0.07)", &["10", "5,7", "0", "4,4,9"]);
        pages_match("octal(0.137)", &["12", "3,3,8"]);
        pages_match("octal(0.8f4)", &["13", "9,11", "2"]);
        pages_match("octal(4.007)", &["10", "5,7", "1", "4,4,9"]);
        pages_match("octal(4u.0)", &["10", "6,7", "2", "1"]);
        pages_match("octal(c.6u4)", &["9", "6,8"]);
        pages_match("push(nim,euclid0)", &["2,4", "pushed(2,4)"]);
        pages_match(
            "push(push(nim,wythoff),euclid)",
            &["4,6", "pushed1(4,6)", "pushed1(pushed(2,2))"],
        );
        pages_match("sum(tag(3),wythoff)", &["5+2,3"]);
        pages_match("sum(sum(nim,octal(0.07)),fibonacci-nim)", &["3,4+9+20:5"]);
        pages_match("misere(octal(0.77))", &["6,2"]);
    }

    #[test]
    fn not_paged_rulesets_say_so() {
        let r: Ruleset = "euclid3".parse().unwrap();
        let p = r.parse_position("3,5,7").unwrap();
        assert_eq!(option_count(&r, &p), None);
        assert!(!options_page(&r, &p, 0, 10, &mut Vec::new()));
    }

    #[test]
    fn huge_positions_page_without_enumerating() {
        let big = 1_000_000_000_000_000_000u64;
        let r: Ruleset = "nim".parse().unwrap();
        let p = Position::Heaps(vec![big, 3]);
        assert_eq!(option_count(&r, &p), Some(big as u128 + 3));
        let mut out = Vec::new();
        options_page(&r, &p, big as u128 - 1, 3, &mut out);
        assert_eq!(
            out,
            [vec![big - 1, 3], vec![big, 0], vec![big, 1]]
                .map(Position::Heaps)
                .to_vec()
        );
        // three-part splits of a huge heap: the count is the partition number p₃(r) = round(r²/12)
        let r: Ruleset = "octal(0.8)".parse().unwrap();
        let p = Position::Heaps(vec![1_000_001]);
        let count = option_count(&r, &p).unwrap();
        assert_eq!(count, (1_000_000u128 * 1_000_000 + 6) / 12);
        let mut out = Vec::new();
        options_page(&r, &p, count - 1, 5, &mut out);
        assert_eq!(out, vec![Position::Heaps(vec![333_333, 333_333, 333_334])]);
    }
}
