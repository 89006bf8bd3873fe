"""Explicit plans (the Automated Game Testing article): functional tests written as where to go and what
to do there, executed by an agent that navigates, reacts to events with rules, and validates every
gameplay action.

- `schema`: plan and plan-config models, YAML loading with file/line/field errors.
- `agent`: the explicit plan agent (nodes in order, rules interrupt by priority, resume where it left).
- `navigation`: ``teleport`` (the game's hook), ``path`` (A* on the game's walkable grid), ``learned``.
- `validation`: per-action pre-action capture and post-action checks bound to an event or a delay.
- `runner`: run plans like tests (output, exit status, JUnit XML, failing traces to the store, replay).
- `recorder`, `text`: plans from play sessions and from text.
- `learned`: the PPO navigation policy and its training script.
"""

from playtester.plans.schema import Node, Plan, PlanConfig, Rule, load_config, load_plan, parse_plan

__all__ = ["Node", "Plan", "PlanConfig", "Rule", "load_config", "load_plan", "parse_plan"]
