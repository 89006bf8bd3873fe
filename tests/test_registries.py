"""The registries that let a lower layer serve kinds defined higher up (docs/architecture.md, "The layers,
enforced"): action spaces that serialize their own fields, and replayers per bug kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from playtester.actions.space import Action, ActionSpace, register_loader, space_from_dict, space_to_dict
from playtester.drive.inputs import InputFrame
from playtester.errors import ConfigError, UsageError
from playtester.findings import Bug


@dataclass
class TaggedSpace(ActionSpace):
    tag: dict[str, Any] = field(default_factory=dict)

    def extra_dict(self) -> dict[str, Any]:
        return {"x_test_tag": self.tag}


def test_a_space_kind_defined_elsewhere_round_trips_through_its_registered_loader():
    from playtester.actions.space import SPACES

    register_loader("x_test_tag", lambda data, actions: TaggedSpace(data["kind"], actions, source=data["source"],
                                                                     tag=data["x_test_tag"]))
    space = TaggedSpace("tagged", [Action("jump", InputFrame.make(keys=["SPACE"]))], source="here", tag={"n": 3})
    data = space_to_dict(space)
    assert data["x_test_tag"] == {"n": 3}
    back = space_from_dict(data)
    assert isinstance(back, TaggedSpace) and back.tag == {"n": 3}
    assert back.actions[0].inputs == space.actions[0].inputs and back.source == "here"
    plain = space_from_dict(space_to_dict(ActionSpace("manual", space.actions)))
    assert type(plain) is ActionSpace
    SPACES.remove("x_test_tag")
    with pytest.raises(ConfigError, match="carries x_test_tag, and no loader for it is installed"):
        space_from_dict(data)


def test_a_bug_kind_without_a_replayer_is_refused_with_the_reason():
    import playtester.replay as replay
    from playtester.findings import Trace
    from playtester.replay import REPLAYERS, register_replayer, replay_bug

    bug = Bug(7, "x_test_kind", "x:1", "something", "", 1, 0.0, 3, trace=Trace("blockmaze", {}, 0, {}, [0, 1, 2]))
    with pytest.raises(UsageError, match="'x_test_kind' bug and no replayer for that kind is installed"):
        replay_bug(bug)
    with pytest.raises(UsageError, match="no replayer for that kind"):
        replay.minimize_bug(bug)
    seen = []
    register_replayer("x_test_kind", lambda b, runs, trace: seen.append((b.id, runs)) or "replayed",
                      not_shrunk="its steps are tied to a script")
    try:
        assert replay_bug(bug, runs=3) == "replayed" and seen == [(7, 3)]
        with pytest.raises(UsageError, match="its steps are tied to a script"):  # the kind's own reason
            replay.minimize_bug(bug)
    finally:
        REPLAYERS.remove("x_test_kind")
