//! A call in progress: its code, where it is, its locals' place, and the moves a
//! decision made in it still has to run (`choose each`) or may hand on to (`decline`).

use super::state::CodeRef;
use crate::value::Value;

/// One active call.
#[derive(Debug)]
pub struct Frame {
    /// The code.
    pub code: CodeRef,
    /// Next op.
    pub pc: u32,
    /// First local slot.
    pub base: u32,
    /// Moves chosen at once (`choose each`) still to run: seat, option, argument, decide op.
    pub queue: Vec<(u8, u16, Value, u32)>,
    /// The claims of a claim window after the one taken, next last: what `decline` in the
    /// taken claim's body hands the window to. Seat, option, argument, decide op.
    pub declined: Vec<(u8, u16, Value, u32)>,
}

impl Clone for Frame {
    fn clone(&self) -> Frame {
        Frame {
            code: self.code,
            pc: self.pc,
            base: self.base,
            queue: self.queue.clone(),
            declined: self.declined.clone(),
        }
    }

    /// Reuses this frame's queue (a lookahead copies the call stack once per move it
    /// tries; a derived copy would allocate a queue for every frame every time).
    fn clone_from(&mut self, src: &Frame) {
        self.code = src.code;
        self.pc = src.pc;
        self.base = src.base;
        if !(self.queue.is_empty() && src.queue.is_empty()) {
            self.queue.clone_from(&src.queue);
        }
        if !(self.declined.is_empty() && src.declined.is_empty()) {
            self.declined.clone_from(&src.declined);
        }
    }
}
