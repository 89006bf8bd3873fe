"""Campaigns: agents play a game on N worker processes until a budget is spent.

One step loop (`loop.CampaignLoop`) serves every campaign; what is measured and kept is in its observers:

- `run_agent` (``playtester run``, `run.py`): the loop with counting observers; nothing is stored.
- `explore` (``playtester explore``, `explore.py`): the whole job: known failures replayed first, every step
  also through the oracles and coverage, findings, traces and coverage to the SQLite store as they happen, then
  the new bugs checked and the reports written (`finish.py`); it returns the verdict (`CampaignResult`).
- `control.EpisodeControl`: how an explorer returns to a state (snapshot, restore, replay a trace).
- `demos.py`: demonstrations an explorer learns from before the first step.
"""

from playtester.campaign.control import EpisodeControl, Snapshot
from playtester.campaign.demos import load_demos, play_demos
from playtester.campaign.explore import (
                                         CAPTURE,
                                         SAVE_AGENT_EVERY_S,
                                         CampaignResult,
                                         choose_abstraction,
                                         explore,
)
from playtester.campaign.finish import (
                                         FAIL_ON,
                                         Finished,
                                         bug_frames,
                                         check_fail_on,
                                         exit_code,
                                         finalize_bugs,
                                         finish_campaign,
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

__all__ = ["CAPTURE", "FAIL_ON", "SAVE_AGENT_EVERY_S", "Budget", "CampaignLoop", "CampaignResult", "EpisodeControl",
           "EpisodeEnd", "Finished", "Observer", "RunSummary", "Slot", "Snapshot", "Step", "bug_frames",
           "campaign_info", "check_fail_on", "choose_abstraction", "exit_code", "explore", "finalize_bugs", "finish_campaign",
           "load_demos", "make_agents", "outcome_of", "play_demos", "run_agent", "silenced_warning",
           "unfinished_bugs", "with_memory_limit"]
