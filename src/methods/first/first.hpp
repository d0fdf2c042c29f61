#pragma once
// FIRST ([FIRST Alg. 3]): forward selection on the explained variance V̂_u = Var̂Y − T̂(u) (eq. 15) — from
// A = ∅, V̂_∅ = 0, add the argmax of V̂_{A∪i} (ties to the lowest index) while |A| < p and it is strictly above
// V̂_A — then NANNE-BE (Algorithm 2) on A. ψ̂ = Ŝ on the kept features, 0 elsewhere; selected = {ψ̂ > 0}.
// forward = "fast" is FIRST-FAST (Algorithm S1): each step also drops the candidates with V̂_{A∪i} < V̂_A for good.
// Algorithm 3 drops nothing early (the R package ≥ 1.1 differs). A step's candidates are independent estimates:
// they go through the Executor, so the result does not depend on ranks or threads.
#include <cstdint>
#include <functional>
#include <vector>

#include "methods/executor.hpp"
#include "methods/first/nanne.hpp"

namespace bfs::first {

struct FirstSettings {
  std::size_t n_outer = 0;       ///< N_O (0 = all rows)
  bool fast = false;             ///< FIRST-FAST
  std::size_t max_selected = 0;  ///< 0 = no cap
  std::uint64_t seed = 0;
};

/// The forward selection after a step: what a checkpoint holds and a resumed run starts from.
struct ForwardState {
  std::int32_t step = 0;                ///< steps done
  std::vector<std::size_t> forward;     ///< A, in the order the steps added it
  std::vector<double> explained;        ///< V̂_A after each addition
  std::vector<std::size_t> candidates;  ///< the candidates left, ascending (FIRST-FAST drops some for good)
};

struct FirstOutcome {
  std::vector<std::size_t> forward;       ///< features in the order the forward selection added them
  std::vector<double> forward_explained;  ///< V̂_A after each addition
  BackwardResult backward;                ///< NANNE-BE on the forward set
  std::vector<double> psi;                ///< ψ̂, p entries
  bool interrupted = false;               ///< a StepHook stopped the run: no backward pass, no ψ̂
  std::int32_t steps = 0;                 ///< forward steps done
};

/// Called on every rank after each forward step that added a feature, with the state; returns true to stop the
/// run there (a stop request, agreed by every rank).
using StepHook = std::function<bool(const ForwardState& state)>;

/// Algorithm 3 (or S1) then NANNE-BE, from `start` (a checkpoint's state; empty = from A = ∅).
FirstOutcome run_first(const TotalIndex& t, const FirstSettings& settings, Executor& executor,
                       const StepHook& after_step = {}, ForwardState start = {});

}  // namespace bfs::first
