//! The target machine of the unrolling estimate (seed 004, section 5): how
//! many operations issue a cycle (m), how long an operation holds its slot
//! (p), when each class of result can be used, the instruction size and
//! the instruction cache, and how many iterations of a contiguous innermost
//! loop the compiler runs at once (SIMD lanes). The default is the paper's
//! VLIW (section 7), which has no vector unit.

use std::fmt;
use std::str::FromStr;

/// Machine parameters; names are the `machine(param, value)` facts' and the
/// keys of a `--machine` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// m: operations issued in one cycle.
    pub issue: i64,
    /// p: cycles before the slot of an operation takes the next one.
    pub issue_cycles: i64,
    pub latency_fp: i64,
    pub latency_load: i64,
    pub latency_store: i64,
    pub latency_int: i64,
    /// Bits of one (VLIW) instruction, which holds `issue` operations.
    pub instruction_bits: i64,
    pub icache_bytes: i64,
    /// Lanes of the vector unit; above 1, an innermost loop the compiler
    /// vectorizes (see [`super::vectorizable`]) is not unrolled: gfortran
    /// -O2 vectorizes the original loop and not the unrolled one (README,
    /// the stencil measured).
    pub vector_width: i64,
}

impl Default for Machine {
    /// Section 7: four operations a cycle, floating point and floating
    /// loads and stores in 2 cycles, everything else in 1, 256-bit
    /// instructions, a 256 KB instruction cache.
    fn default() -> Self {
        Machine {
            issue: 4,
            issue_cycles: 1,
            latency_fp: 2,
            latency_load: 2,
            latency_store: 2,
            latency_int: 1,
            instruction_bits: 256,
            icache_bytes: 256 * 1024,
            vector_width: 1,
        }
    }
}

impl Machine {
    /// The parameters by name, in a fixed order.
    pub fn params(&self) -> [(&'static str, i64); 9] {
        [
            ("issue", self.issue),
            ("issue_cycles", self.issue_cycles),
            ("latency_fp", self.latency_fp),
            ("latency_load", self.latency_load),
            ("latency_store", self.latency_store),
            ("latency_int", self.latency_int),
            ("instruction_bits", self.instruction_bits),
            ("icache_bytes", self.icache_bytes),
            ("vector_width", self.vector_width),
        ]
    }

    /// Sets parameter `name`; an unknown name or a value below 1 is an error.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        if value < 1 {
            return Err(format!("`{name}` must be at least 1, not {value}"));
        }
        let slot = match name {
            "issue" => &mut self.issue,
            "issue_cycles" => &mut self.issue_cycles,
            "latency_fp" => &mut self.latency_fp,
            "latency_load" => &mut self.latency_load,
            "latency_store" => &mut self.latency_store,
            "latency_int" => &mut self.latency_int,
            "instruction_bits" => &mut self.instruction_bits,
            "icache_bytes" => &mut self.icache_bytes,
            "vector_width" => &mut self.vector_width,
            _ => {
                let known: Vec<&str> = self.params().iter().map(|p| p.0).collect();
                return Err(format!(
                    "unknown machine parameter `{name}` (known: {})",
                    known.join(", ")
                ));
            }
        };
        *slot = value;
        Ok(())
    }

    /// Bytes one operation takes in the instruction cache: its share of a
    /// VLIW instruction.
    pub fn bytes_per_op(&self) -> f64 {
        self.instruction_bits as f64 / 8.0 / self.issue as f64
    }
}

/// `issue=4;issue_cycles=1;...`: the symbol the rules pass to the functors.
impl fmt::Display for Machine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .params()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        f.write_str(&parts.join(";"))
    }
}

impl FromStr for Machine {
    type Err = String;
    fn from_str(s: &str) -> Result<Machine, String> {
        let mut m = Machine::default();
        for part in s.split(';').filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or(format!("bad parameter `{part}`"))?;
            let v: i64 = v.parse().map_err(|_| format!("bad value in `{part}`"))?;
            m.set(k, v)?;
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let m = Machine::default();
        assert_eq!(m.to_string().parse::<Machine>(), Ok(m));
        assert_eq!(m.bytes_per_op(), 8.0);
        assert!(Machine::default().set("issue", 0).is_err());
        assert!(Machine::default().set("width", 4).is_err());
    }
}
