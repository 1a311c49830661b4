//! The options of a position with their values: all of them, a page of them, one of them.

use super::{Evaluator, OptionAnswer, OptionValue, OptionsPage};
use crate::game::quote::quoted;
use crate::game::rules::paging;
use crate::game::rules::typed::RuleError;
use crate::game::{Outcome, Position, Ruleset};
use crate::solver::control::{Control, SolveError};
use crate::solver::search::{self};

impl Evaluator {
    /// Every option of `p` with its value, in the ruleset's move order.
    pub fn options(
        &mut self,
        ruleset: &Ruleset,
        p: &Position,
        control: &Control,
    ) -> Result<Vec<OptionValue>, SolveError> {
        let mut opts = Vec::new();
        ruleset.try_options(p, &mut opts)?;
        // One region covering the position answers all its options at once.
        self.value(ruleset, p, control)?;
        opts.into_iter()
            .map(|o| self.option_value(ruleset, p, o, control))
            .collect()
    }

    /// The options number `offset .. offset + limit` of `p` with their answers, and how many
    /// options `p` has: huge positions are paged without generating the options before the page.
    pub fn options_page(
        &mut self,
        ruleset: &Ruleset,
        p: &Position,
        offset: u128,
        limit: usize,
        control: &Control,
    ) -> Result<OptionsPage, SolveError> {
        let (total, page) = control.rules_within(|| first_options(ruleset, p, offset, limit, control))?;
        // One region covering the position answers all its options at once.
        self.answer(ruleset, p, control)?;
        let mut options = Vec::with_capacity(page.len());
        for o in page {
            control.check()?;
            let answer = self.answer(ruleset, &o, control)?;
            options.push(OptionAnswer {
                description: ruleset.describe_move(p, &o),
                to: o.to_string(),
                answer,
                position: o,
            });
        }
        Ok(OptionsPage { total, offset, options })
    }

    /// The option `to` of `from`, with its move in words and its value.
    pub fn option_value(
        &mut self,
        ruleset: &Ruleset,
        from: &Position,
        to: Position,
        control: &Control,
    ) -> Result<OptionValue, SolveError> {
        control.check()?;
        if ruleset.has_typed() {
            // a typed rule may loop: its options' values may be infinite
            let a = self.answer(ruleset, &to, control)?;
            if let Some(g) = a.gamma().filter(|_| a.method == super::ValueMethod::Loopy) {
                return Ok(OptionValue {
                    description: ruleset.describe_move(from, &to),
                    to: to.to_string(),
                    grundy: super::gamma_cell(&g),
                    outcome: a.outcome,
                    winning: a.outcome == Outcome::P,
                    gamma: Some(g),
                    position: to,
                });
            }
        }
        let g = self.value(ruleset, &to, control)?;
        Ok(OptionValue {
            description: ruleset.describe_move(from, &to),
            to: to.to_string(),
            grundy: g,
            outcome: Outcome::of(g),
            winning: g == 0,
            gamma: None,
            position: to,
        })
    }
}

/// The options `offset .. offset + limit` of `p` and their total: paged where the ruleset's
/// options can be counted, else enumerated (within [`paging::ENUMERATE_LIMIT`] and the budget).
pub fn first_options(
    ruleset: &Ruleset,
    p: &Position,
    offset: u128,
    limit: usize,
    control: &Control,
) -> Result<(u128, Vec<Position>), SolveError> {
    // an option is about as large as its position, with a few more heaps after a split
    let each = search::position_bytes(p) + 64;
    let mut page = Vec::new();
    if let Some(total) = paging::option_count(ruleset, p) {
        let shown = total.saturating_sub(offset).min(limit as u128) as u64;
        control.reserve(
            format!("{shown} options of {}", quoted(&p.to_string())),
            shown.saturating_mul(each),
        )?;
        paging::options_page(ruleset, p, offset, limit, &mut page);
        return Ok((total, page));
    }
    let bound = paging::option_bound(ruleset, p);
    if bound > paging::ENUMERATE_LIMIT {
        if ruleset.has_typed() {
            // a typed rule's ranges may pass the loop steps' cap too: the run refuses that
            // first (as `value` does), in its own words; a cap of a thousand options stops it early
            // when its refusal is the options'
            let mut none = Vec::new();
            let run = control.rules_within_options(0, || ruleset.try_options(p, &mut none));
            if let Err(e @ RuleError::TooManySteps { .. }) = run {
                return Err(e.into());
            }
        }
        let about = if ruleset.has_typed() { "at least" } else { "about" };
        return Err(SolveError::Unsupported(format!(
            "{} in {ruleset} has {about} {} options, too many to list (at most {})",
            quoted(&p.to_string()),
            crate::game::rules::typed::run::big_number(u128::from(bound)),
            paging::ENUMERATE_LIMIT
        )));
    }
    control.reserve(
        format!("the options of {}", quoted(&p.to_string())),
        bound.saturating_mul(each),
    )?;
    // a typed rule's options past the bound (its estimate is a lower one) stop at the limit
    // of a listing, and within the budget held
    let most = (control.memory_budget() / (2 * each)).min(paging::ENUMERATE_LIMIT + 1);
    control.rules_within_options(most, || ruleset.try_options(p, &mut page))?;
    let total = page.len() as u128;
    let start = usize::try_from(offset).unwrap_or(usize::MAX).min(page.len());
    let end = start.saturating_add(limit).min(page.len());
    Ok((total, page.drain(start..end).collect()))
}
