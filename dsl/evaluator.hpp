// Evaluation of a planned ruleset against a Facts implementation. The public entry point is
// review::dsl::evaluate() in dsl/ruleset.hpp; this header only documents the model.
//
// A rule means a nested-loop join: `when` once per pull request; each `for` iterates its domain
// (queried lazily, at most once per (source, scope) per evaluate() call); the `for`'s `where`,
// then the rule's `where`s must hold and no `unless` may hold; then the templates are filled and
// one Finding is made (duplicates with the same file, line, problem and body are merged,
// through a key set). `~` binds its named groups as variables for later conditions and templates. It is
// run through its plan (dsl/plan.hpp): conditions checked at the earliest `for` that binds what
// they read, and binders that look up a hash index (built lazily, once per evaluate() per
// source, scope and key) instead of scanning; EvalOptions::use_plan = false runs the nested
// loops as written. Loops check the rule's deadline on every iteration.
//
// A rule with `also` bodies is the union of its bodies (Datalog: one relation defined by several
// clauses): each body runs after the rule's `when`, from an empty environment, through its own
// plan; its findings carry the rule's id and the body's label (Finding::label), and are merged
// only with findings of the same body. The bodies share the rule's deadline: one body over budget
// (or past the memory ceiling) stops the whole rule, whose findings are then all dropped.
//
// Which rules run, in what order, and when each source's cached results are released is the
// driver's (dsl/schedule.hpp, run_program); this file evaluates one kind or one rule.
#pragma once

#include "dsl/ruleset.hpp"
