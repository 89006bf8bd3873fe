"""``texture_model`` in a game's ``[oracles]`` table: relative to the config file when the settings are validated
with the config's folder as context (``{"config_dir": ...}``), else (and when no file is there) relative to the
working directory, as before."""

from __future__ import annotations

from playtester.oracles.registry import settings_model
from playtester.oracles.texture import TextureSettings, resolve_model_path


def test_a_relative_texture_model_is_the_config_files_neighbour_when_it_is_there(tmp_path, monkeypatch):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "park-texture.pt").write_bytes(b"x")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for model in (TextureSettings, settings_model()):  # the oracle's own table and the whole [oracles] model
        s = model.model_validate({"texture_model": "models/park-texture.pt"}, context={"config_dir": str(tmp_path)})
        assert s.texture_model == str(tmp_path / "models" / "park-texture.pt")
        # no such file beside the config: the working-directory path, unchanged (the fallback)
        s = model.model_validate({"texture_model": "other.pt"}, context={"config_dir": str(tmp_path)})
        assert s.texture_model == "other.pt"
        # no context (the config's folder not known): as written
        assert model.model_validate({"texture_model": "models/park-texture.pt"}).texture_model == \
            "models/park-texture.pt"
    absolute = str(tmp_path / "abs.pt")
    assert resolve_model_path(absolute, tmp_path / "models") == absolute
    assert resolve_model_path(None, tmp_path) is None


def test_a_game_config_names_its_texture_model_beside_itself(tmp_path, monkeypatch):
    """Through a real playtester.toml: `oracle_settings` passes the config's folder, so a campaign started from
    another folder still finds the model next to the config."""
    from playtester.drive.spec import resolve
    from playtester.oracles.registry import oracle_settings

    game = tmp_path / "game"
    (game / "models").mkdir(parents=True)
    (game / "models" / "tex.pt").write_bytes(b"x")
    (game / "main.py").write_text("def main():\n    pass\n")
    (game / "playtester.toml").write_text('entry = "main.py:main"\n\n[oracles]\ntexture_model = "models/tex.pt"\n')
    monkeypatch.chdir(tmp_path)
    spec = resolve(str(game))
    assert oracle_settings(spec).texture_model == str(game / "models" / "tex.pt")
