"""Campaigns: agents play a game on N worker processes until a budget is spent.

One step loop (`loop.CampaignLoop`) serves every campaign; what is measured and kept is in its observers:

- `run_agent` (``playtester run``, `run.py`): the loop with counting observers; nothing is stored.
- `explore` (``playtester explore``, `explore.py`): every step also passes through the oracles and
  coverage, and findings, traces and coverage go to the SQLite store as they happen.
- `control.EpisodeControl`: how an explorer returns to a state (snapshot, restore, replay a trace).
- `demos.py`: demonstrations an explorer learns from before the first step.
"""

from playtester.campaign.control import EpisodeControl, Snapshot
from playtester.campaign.demos import load_demos, play_demos
from playtester.campaign.explore import (
                                         CAPTURE,
                                         SAVE_AGENT_EVERY_S,
                                         ExploreResult,
                                         bug_frames,
                                         choose_abstraction,
                                         explore,
                                         finalize_bugs,
                                         unfinished_bugs,
)
from playtester.campaign.loop import Budget, CampaignLoop, Observer, Slot, Step, outcome_of
from playtester.campaign.run import (
                                         EpisodeEnd,
                                         RunSummary,
                                         campaign_info,
                                         make_agents,
                                         run_agent,
                                         silenced_warning,
                                         with_memory_limit,
)

__all__ = ["CAPTURE", "SAVE_AGENT_EVERY_S", "Budget", "CampaignLoop", "EpisodeControl", "EpisodeEnd",
           "ExploreResult", "Observer", "RunSummary", "Slot", "Snapshot", "Step", "bug_frames", "campaign_info",
           "choose_abstraction", "explore", "finalize_bugs", "load_demos", "make_agents", "outcome_of",
           "play_demos", "run_agent", "silenced_warning", "unfinished_bugs", "with_memory_limit"]
