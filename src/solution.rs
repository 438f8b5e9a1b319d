//! The answer every engine gives: the full table, IDA* over pattern
//! databases and the classic searches all return a [`Solution`], or a
//! [`SolveError`].

use crate::board::{Metric, Move, Shape, Slide, moves_to_string};
use crate::search::Stats;

/// What an engine found for a board: the blank's moves to the goal, or
/// that the board cannot reach it; and, where a search ran, what it took.
///
/// ```
/// use slidedb::{Board, Shape, generate};
/// let table = generate(&Board::solved(Shape::EIGHT), |_| {}).unwrap();
/// let found = table.solve(&"1 2 3 4 5 6 7 0 8".parse().unwrap()).unwrap();
/// assert_eq!(found.distance(), Some(1));
/// assert_eq!(found.move_string().as_deref(), Some("r"));
/// assert_eq!(found.stats, None); // a table lookup is no search
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solution {
    /// The blank's path to the goal, one letter a cell (empty for a solved
    /// board); `None` if the board cannot reach the goal.
    pub moves: Option<Vec<Move>>,
    /// The metric its moves are counted in: in the multi-tile metric a
    /// run of one letter is one move ([`Solution::slides`]).
    pub metric: Metric,
    /// The work and space the search took; `None` where no search ran (an
    /// answer from a full table, or a board found unsolvable by its parity).
    pub stats: Option<Stats>,
}

impl Solution {
    /// The answer for a board that cannot reach the goal.
    pub(crate) fn unsolvable() -> Solution {
        Solution::default()
    }

    /// Whether the board can reach the goal.
    ///
    /// ```
    /// let found = slidedb::Solution { moves: Some(vec![]), ..Default::default() };
    /// assert!(found.is_solvable());
    /// ```
    pub fn is_solvable(&self) -> bool {
        self.moves.is_some()
    }

    /// The number of moves in its metric, if the board can reach the goal
    /// (the exact distance when the engine is optimal).
    ///
    /// ```
    /// use slidedb::{Metric, Move, Solution};
    /// let path = vec![Move::Up, Move::Up, Move::Left];
    /// let found = Solution { moves: Some(path.clone()), ..Default::default() };
    /// assert_eq!(found.distance(), Some(3));
    /// let multi = Solution { moves: Some(path), metric: Metric::Multi, stats: None };
    /// assert_eq!(multi.distance(), Some(2)); // uu, l
    /// ```
    pub fn distance(&self) -> Option<u32> {
        self.moves
            .as_deref()
            .map(|m| self.metric.moves_in(m) as u32)
    }

    /// The moves of its metric, in order, if the board can reach the goal:
    /// a run of one letter is one multi-tile move.
    ///
    /// ```
    /// use slidedb::{Metric, Move, Solution};
    /// let path = vec![Move::Up, Move::Up, Move::Left];
    /// let multi = Solution { moves: Some(path), metric: Metric::Multi, stats: None };
    /// let moves: Vec<String> = multi.slides().unwrap().iter().map(|s| s.to_string()).collect();
    /// assert_eq!(moves, ["uu", "l"]);
    /// ```
    pub fn slides(&self) -> Option<Vec<Slide>> {
        self.moves.as_deref().map(|m| self.metric.group(m))
    }

    /// The moves as letters (`u d l r`), if the board can reach the goal.
    ///
    /// ```
    /// use slidedb::{Move, Solution};
    /// let found = Solution { moves: Some(vec![Move::Up, Move::Left]), ..Default::default() };
    /// assert_eq!(found.move_string().as_deref(), Some("ul"));
    /// ```
    pub fn move_string(&self) -> Option<String> {
        self.moves.as_deref().map(moves_to_string)
    }
}

/// Why a board could not be answered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The board is not of the goal's size.
    #[error("the board is {board} but the goal is {goal}")]
    WrongShape {
        /// The goal's shape.
        goal: Shape,
        /// The board's shape.
        board: Shape,
    },
    /// The goal asked for is not one the table or databases serve: they
    /// serve the goals of one class (see [`crate::symmetry::GoalClass`]).
    #[error("goal {goal} is not served by a file built for goal {served} (another class of goals)")]
    OtherClass {
        /// The goal asked for, cells in reading order.
        goal: String,
        /// The goal the file was built for.
        served: String,
    },
    /// A search stopped at a limit before it reached the goal: the memory
    /// it may use for the boards it remembers, or its deepest bound.
    #[error("the search stopped at its limit without reaching the goal: {what}")]
    SearchLimit {
        /// Which limit, in words.
        what: String,
    },
    /// The search was stopped by the progress closure of
    /// [`Solver::solve_with_progress`](crate::Solver::solve_with_progress)
    /// before it reached the goal.
    #[error("the search was stopped after {} nodes expanded, without reaching the goal", .stats.expanded)]
    Stopped {
        /// The work done until then.
        stats: Stats,
    },
    /// The table or databases met an entry that cannot be right: the body
    /// is damaged (this cannot happen on a file whose checksum holds).
    #[error("the file is damaged at {board}: {why}; rebuild it")]
    Damaged {
        /// Where the descent stopped, cells in reading order.
        board: String,
        /// What was wrong there.
        why: &'static str,
    },
}

/// Checks that a board of `board` shape can be asked toward a goal of
/// `goal` shape.
pub(crate) fn check_shape(goal: Shape, board: Shape) -> Result<(), SolveError> {
    if goal == board {
        Ok(())
    } else {
        Err(SolveError::WrongShape { goal, board })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsolvable_solution_is_not_solvable() {
        assert!(!Solution::unsolvable().is_solvable());
    }
}
