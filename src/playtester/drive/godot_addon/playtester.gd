extends Node
# playtester's Godot 3 add-on: speaks playtester's remote-game protocol (docs/protocol.md, version 2).
#
# playtester copies the project to a temporary folder, puts this script in it and adds an override.cfg
# that makes it an autoload (the user's project is never edited), then starts Godot with --fixed-fps
# (virtual time: every frame is 1/fps long) and PLAYTESTER_PORT and PLAYTESTER_SECRET set. The add-on connects to
# 127.0.0.1:PORT, answers playtester's challenge with a hello that proves the secret (HMAC-SHA256 of its nonce:
# Godot 3.2 has no HMACContext, so HMAC is built on HashingContext) and blocks the main loop between steps: each step holds the asked actions/keys for
# exactly N frames, then reports the scene's entities, the signals emitted and the frame (godot3-runner).
# Errors are not seen here: Godot prints SCRIPT ERROR/ERROR lines to stderr, which playtester reads; the
# "@@playtester sync SEQ" line printed before each reply tells it where a step's lines end.
# The add-on leaves the game as it was (issue 56): once the main scene enters the tree it takes itself out of the
# tree (the root's children are the game's autoloads and its main scene, as without playtester: a game that finds its
# main scene with get_root().get_child(0) works) and runs from the SceneTree's signals: "idle_frame" queues a call
# that the frame's message flush makes after every node's _process (where it reports and blocks between steps), and
# "physics_frame", at the start of the next frame's physics step, injects the step's inputs, so that a press is
# Input.is_action_just_pressed both in that frame's _physics_process and in its _process.
# A reset seeds Godot's global RNG, releases every held input and changes to the main scene again (other
# autoloads keep their state: PLAYTESTER_REMOTE_FRESH=1 makes playtester start a fresh Godot per episode).
# Speed (docs/protocol.md, "Speed"): a reset may ask for answers in Godot's Variant format (var2bytes) and for
# delta observations (only the entities that changed, and the ids "gone") and for compact ones (the changed entities'
# values in one flat list, each entity's id, kind and variable names sent once); a step may carry "then", more steps
# to play before the one answer, with "each" (every step answered) and "join" (those answers in one message, after
# the batch's last step; each step's sync line is still printed as it ends).

const PROTOCOL = 2
const USAGE_SCRIPT_VARIABLE = 8192

var peer := StreamPeerTCP.new()
var state := "idle"  # idle (waiting for a command) | running (a step) | resetting (scene reloading)
var seq := -1  # the request being answered
var frames_left := 0
var frame_no := 0
var fps := 60.0
var held_actions := {}
var held_keys := {}
var events := []
var capture = null
var old_scene_id := 0
var args := {}  # reset's args: the game may read Playtester.args
var pixels := false
var prop_names := {}  # script instance id -> the names of its script variables
var node_info := {}  # node instance id -> [entity id, kind, script variable names]
var watch := []  # reset's "watch": [[script path, "call:METHOD" | "get:PROP:SUB"], ...], read after every step
var watch_scripts := {}  # script path -> the nodes running it (for watch)
var delta := false  # reset's "delta": observations carry only the entities that changed (and "gone")
var last_sig := {}  # node instance id -> what was sent of it last ([x, y, prop values...]), for delta
var last_ids := {}  # entity ids in the last observation, for delta's "gone"
var queued := []  # step's "then": the steps still to play before the answer
var each := false  # step's "each": every step of the batch is answered as it ends (each "then" step has its seq)
var encoding := "json"  # of our answers, as reset asked: "json" or "godot-variant" (var2bytes: ~5x cheaper here)
var compact := false  # reset's "compact": observations carry the changed entities as one flat list ("ent")
var next_index := 0  # compact: the index the next entity gets (never reused on this connection)
var ent := []  # compact: the flat list of the observation being built ([index, values..., x, y] per entity)
var fresh := []  # compact: the schemas of the entities it lists for the first time
var c_gone := []  # compact: the indices of the entities that left since the last observation
var c_nodes := []  # compact: the entity nodes of the last observation (the same at most steps: their infos are kept)
var c_dirty := true  # compact: a node entered or left the tree since then (c_nodes may hold a freed node)
var c_infos := []  # ... their node_info
var c_sigs := []  # ... and what was sent of each (its variables' values, then its position); null: to be sent
var join := false  # step's "join" (with "each"): the batch's answers go in one message, after its last step
var joined := []  # ... the JSON texts of the answers of the batch's steps played so far
var holding := false  # ... the answer being written is not the batch's last
var tree: SceneTree  # the game's SceneTree (the add-on itself is never in it)
var gone := false  # quit: no more frames are served
var pending := []  # the input events of the step to come, injected at the start of its first physics step
var later := []  # events for the physics step after (a click's release)
var injected := false  # events were injected in this frame
var touch := false  # reset's "touch": mouse button 1 is a screen touch too (the project reads touches)
var button_nodes := {}  # instance id -> each BaseButton in the tree (menus: the buttons playtester may click)
var last_buttons = null  # the buttons sent last (an observation carries them when they changed)
var root_kept := {}  # the root's children at start-up but the main scene (the game's autoloads): a reset frees others


func _notification(what):
	if what == NOTIFICATION_PARENTED and get_parent() != null:
		# Godot adds the autoloads to the root, then the main scene, before the root enters the tree: the add-on
		# leaves the root at once (never in the tree: not get_root().get_child(0), no _ready) and sets itself up
		# at the first message flush, after every node's _ready
		get_parent().remove_child(self)
		call_deferred("_setup")


func _setup():
	tree = Engine.get_main_loop() as SceneTree
	if tree == null or not tree.get_root().is_inside_tree():
		call_deferred("_setup")
		return
	for c in tree.get_root().get_children():
		if c != tree.current_scene:
			root_kept[c.get_instance_id()] = true  # the game's autoloads (what start-up added to the root)
	tree.get_root().connect("tree_exited", self, "free")  # the add-on is nobody's child: it goes with the root
	var port := int(OS.get_environment("PLAYTESTER_PORT"))
	for a in OS.get_cmdline_args():
		if a.begins_with("--playtester-port="):
			port = int(a.split("=")[1])
	fps = float(Engine.iterations_per_second)
	Engine.physics_jitter_fix = 0.0  # one physics step per frame, always
	pixels = OS.get_name() != "Server"
	peer.big_endian = true
	peer.connect_to_host("127.0.0.1", port)
	var t0 := OS.get_ticks_msec()
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING and OS.get_ticks_msec() - t0 < 10000:
		OS.delay_msec(1)
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		printerr("playtester: cannot connect to 127.0.0.1:%d" % port)
		tree.quit(3)
		return
	peer.set_no_delay(true)
	var auth = _answer_challenge()
	if auth == null:
		peer.disconnect_from_host()
		tree.quit(3)
		return
	tree.connect("node_added", self, "_on_node_added")
	tree.connect("node_removed", self, "_on_node_removed")
	tree.connect("idle_frame", self, "_on_idle_frame")
	tree.connect("physics_frame", self, "_on_physics_frame")
	tree.get_root().connect("tree_exiting", self, "_on_quit")
	if tree.current_scene:
		_watch_tree(tree.current_scene)
	_find_buttons(tree.get_root())
	var info := Engine.get_version_info()
	printerr("@@playtester hello")  # what Godot printed before this is start-up noise, not the game's errors
	_send({"type": "hello", "protocol": PROTOCOL, "engine": "godot", "engine_version": info["string"],
		"game": ProjectSettings.get_setting("application/config/name"),
		"capabilities": {"pixels": pixels, "entities": true, "snapshots": false,
			"inputs": ["actions", "keys", "mouse", "click"], "buttons": true, "touch": true, "screen": [
				tree.get_root().get_visible_rect().size.x, tree.get_root().get_visible_rect().size.y],
			"stderr_sync": true, "fps": fps, "encodings": ["json", "godot-variant"], "delta": true, "batch": true,
			"pipeline": true, "batch_each": true, "compact": true, "batch_joined": true},
		"actions": _input_actions(), "auth": auth})


func _answer_challenge():
	# playtester's first message is a challenge: the hello proves the launch's secret (PLAYTESTER_SECRET, from the
	# environment, never the command line) with HMAC-SHA256(secret, nonce), in hex; null when there is no challenge
	var text = _recv()
	var parsed = JSON.parse(text) if typeof(text) == TYPE_STRING else null
	if parsed == null or parsed.error != OK or typeof(parsed.result) != TYPE_DICTIONARY or \
			parsed.result.get("type", "") != "challenge":
		printerr("playtester: no challenge from playtester (an older playtester, or not playtester): quitting")
		return null
	var secret := OS.get_environment("PLAYTESTER_SECRET")
	if secret == "":
		printerr("playtester: PLAYTESTER_SECRET is not set: the hello cannot prove the launch's secret")
	return _hmac_sha256(secret.to_utf8(), String(parsed.result.get("nonce", "")).to_utf8())


func _sha256(parts: Array) -> PoolByteArray:
	var h := HashingContext.new()
	h.start(HashingContext.HASH_SHA256)
	for p in parts:
		if p.size() > 0:
			h.update(p)
	return h.finish()


func _hmac_sha256(key: PoolByteArray, msg: PoolByteArray) -> String:
	# HMAC(K, m) = H((K ^ opad) || H((K ^ ipad) || m)), 64-byte blocks (RFC 2104)
	if key.size() > 64:
		key = _sha256([key])
	var ipad := PoolByteArray()
	var opad := PoolByteArray()
	for i in range(64):
		var k: int = key[i] if i < key.size() else 0
		ipad.append(k ^ 0x36)
		opad.append(k ^ 0x5c)
	return _sha256([opad, _sha256([ipad, msg])]).hex_encode()


func _on_idle_frame() -> void:
	if not gone:
		call_deferred("_frame_end")  # made at the frame's message flush, after every node's _process


func _on_physics_frame() -> void:
	if not pending.empty():
		_inject()


func _inject() -> void:
	# the step's presses and releases, at the start of a physics step: Godot 3 marks an action just pressed for the
	# physics frame and the idle frame it was pressed in, and the idle frame count changes at the end of a frame, so
	# an event parsed here (not in the previous frame's idle step) is just pressed in this frame's _physics_process
	# and _process alike
	var evs := pending
	pending = later
	later = []
	injected = true
	for ev in evs:
		Input.parse_input_event(ev)


func _frame_end() -> void:
	if gone:
		return
	if not pending.empty() and not injected:  # (no physics step in this frame: late, but not lost)
		_inject()
	injected = false
	if state == "running":
		frame_no += 1
		frames_left -= 1
		if frames_left > 0:
			return
		if not queued.empty():  # a batch: the next step's inputs, no answer in between (with "each": one)
			var next = queued.pop_front()
			if each:
				holding = join  # joined: this answer waits for the batch's last (its sync line is printed now)
				_reply()
				holding = false
				seq = int(next.get("seq", seq)) if typeof(next) == TYPE_DICTIONARY else seq
			_apply_inputs(next.get("inputs", {}) if typeof(next) == TYPE_DICTIONARY else {})
			frames_left = max(1, int(next.get("frames", 1)) if typeof(next) == TYPE_DICTIONARY else 1)
			return
	elif state == "resetting":
		var scene = tree.current_scene
		if scene == null or scene.get_instance_id() == old_scene_id:
			return  # the reloaded scene enters the tree at the end of this frame
		frame_no = 0
		events = []
	if state != "idle":
		if capture != null and pixels:
			VisualServer.connect("frame_post_draw", self, "_after_draw", [], CONNECT_ONESHOT)
			return  # the frame this step ends on is drawn after _process: capture it then
		_reply()
	_serve()


func _on_quit():
	# the game quits (get_tree().quit()) inside a joined batch: the answers of its steps played so far still go
	gone = true
	if not joined.empty() and peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
		_send_bytes(_joined_message().to_utf8())


func _after_draw():
	_reply()
	_serve()


# ---- the protocol
func _send(msg: Dictionary) -> void:
	var data: PoolByteArray
	if encoding == "godot-variant":
		data = var2bytes(msg)  # Godot's binary Variant format: playtester decodes it (docs/protocol.md, Encodings)
	else:
		data = to_json(msg).to_utf8()
	_send_bytes(data)


func _send_bytes(data: PoolByteArray) -> void:
	var n := data.size()  # the length and the JSON in one write (two small writes wait on ACKs)
	var buf := PoolByteArray([(n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255])
	buf.append_array(data)
	peer.put_data(buf)


func _recv():
	var n := peer.get_u32()
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		return null
	if n == 0:
		return ""
	var r = peer.get_data(n)
	if r[0] != OK:
		return null
	return (r[1] as PoolByteArray).get_string_from_utf8()


func _error(text: String) -> void:
	printerr("@@playtester sync %d" % seq)
	_send({"type": "error", "seq": seq, "message": text})


func _serve() -> void:
	# answer commands until a reset or a step sets the game going again
	state = "idle"
	while true:
		var text = _recv()
		if text == null:  # playtester is gone
			tree.quit()
			gone = true
			return
		var parsed := JSON.parse(text)
		if parsed.error != OK or typeof(parsed.result) != TYPE_DICTIONARY:
			_error("not a JSON object: %s" % parsed.error_string)
			continue
		var msg: Dictionary = parsed.result
		seq = int(msg.get("seq", -1))
		var kind = msg.get("type", "")
		if kind == "step":
			_apply_inputs(msg.get("inputs", {}))
			frames_left = max(1, int(msg.get("frames", 1)))
			var then = msg.get("then", [])  # more steps to play before answering (docs/protocol.md, Batches)
			queued = then if typeof(then) == TYPE_ARRAY else []
			capture = msg.get("capture", null)
			each = bool(msg.get("each", false)) and not queued.empty() and (capture == null or not pixels)
			join = each and bool(msg.get("join", false)) and compact and encoding == "json" and capture == null
			state = "running"
			return
		elif kind == "reset":
			seed(int(msg.get("seed", 0)))
			encoding = "godot-variant" if msg.get("encoding", "json") == "godot-variant" else "json"
			delta = bool(msg.get("delta", false))
			compact = bool(msg.get("compact", false))
			last_sig = {}
			last_ids = {}
			c_nodes = []
			c_infos = []
			c_sigs = []
			c_dirty = true
			args = msg.get("args", {})
			node_info = {}
			watch = msg.get("watch", [])
			watch_scripts = {}
			for w in watch:
				watch_scripts[String(w[0])] = []
			_apply_inputs({})
			later = []
			touch = bool(msg.get("touch", false)) and \
				not ProjectSettings.get_setting("input_devices/pointing/emulate_touch_from_mouse")
			last_buttons = null
			capture = msg.get("capture", null)
			var scene = tree.current_scene
			old_scene_id = scene.get_instance_id() if scene else 0
			# what the game added to the root (a split view's Viewport, ...) goes, as at a fresh start
			for c in tree.get_root().get_children():
				if c != scene and not root_kept.has(c.get_instance_id()):
					c.queue_free()
			var main_scene = ProjectSettings.get_setting("application/run/main_scene")
			if main_scene:
				tree.change_scene(main_scene)  # back to the start, wherever the game went
			else:
				tree.reload_current_scene()
			state = "resetting"
			return
		elif kind == "call":  # a hook of the game (plans: teleport): the main scene's playtester_NAME(args...)
			_hook(String(msg.get("name", "")), msg.get("args", []))
		elif kind == "quit":
			tree.quit()
			gone = true
			return
		else:
			_error("unknown message type %s (protocol %d knows reset, step, quit)" % [to_json(kind), PROTOCOL])


func _reply() -> void:
	if compact:
		_reply_compact()
		return
	var obs := {"type": "observation", "seq": seq, "frame_no": frame_no,
		"time_ms": int(round(frame_no * 1000.0 / fps)), "entities": _entities(), "events": events,
		"done": false}
	var b = _buttons_changed()
	if b != null:
		obs["buttons"] = b
	if delta:
		var gone := []
		for id in last_ids:
			if not seen_ids.has(id):
				gone.append(id)
		obs["delta"] = true
		obs["gone"] = gone
		last_ids = seen_ids
	events = []
	_send_observation(obs)


func _reply_compact() -> void:
	# docs/protocol.md, "Compact": the changed entities' values in one flat list, written by hand (to_json of a
	# nested Dictionary sorts its keys and costs ~3x this)
	_entities_compact()
	var t := int(round(frame_no * 1000.0 / fps))
	if encoding == "json" and capture == null:
		var s := '{"type":"observation","compact":true,"seq":' + str(seq) + ',"frame_no":' + str(frame_no) + \
			',"time_ms":' + str(t) + ',"ent":' + to_json(ent)
		if not fresh.empty():
			s += ',"new":' + to_json(fresh)
		if not c_gone.empty():
			s += ',"gone":' + to_json(c_gone)
		if not events.empty():
			s += ',"events":' + to_json(events)
			events = []
		if not watch.empty():
			s += ',"watch":' + to_json(_watched())
		var b = _buttons_changed()
		if b != null:
			s += ',"buttons":' + to_json(b)
		printerr("@@playtester sync %d" % seq)
		if join:
			joined.append(s + "}")
			if holding:
				return  # the batch goes on: its answers go together after its last step
			_send_bytes(_joined_message().to_utf8())
			return
		_send_bytes((s + "}").to_utf8())
		return
	var obs := {"type": "observation", "compact": true, "seq": seq, "frame_no": frame_no, "time_ms": t, "ent": ent}
	if not fresh.empty():
		obs["new"] = fresh
	if not c_gone.empty():
		obs["gone"] = c_gone
	if not events.empty():
		obs["events"] = events
		events = []
	var b = _buttons_changed()
	if b != null:
		obs["buttons"] = b
	_send_observation(obs)


func _joined_message() -> String:
	# the answers held (`joined`, each a compact observation's JSON) as one "observations" message; none held after
	var s := '{"type":"observations","answers":[' + PoolStringArray(joined).join(",") + "]}"
	joined = []
	return s


func _send_observation(obs: Dictionary) -> void:
	# the watched values and the frame when asked, the step's sync line on stderr, then the answer
	if not watch.empty():
		obs["watch"] = _watched()
	if capture != null:
		obs["frame"] = _frame()
	printerr("@@playtester sync %d" % seq)
	_send(obs)


# ---- hooks: methods named playtester_NAME of the current scene's script, called between two steps
func _hook(name: String, call_args: Array) -> void:
	var scene = tree.current_scene
	var names := []
	if scene and scene.get_script():
		for m in scene.get_script().get_script_method_list():
			if String(m["name"]).begins_with("playtester_") and not names.has(String(m["name"]).substr(11)):
				names.append(String(m["name"]).substr(11))
	names.sort()
	var reply := {"type": "reply", "seq": seq, "hooks": names}
	if name == "":
		reply["status"] = "ok"
	elif names.has(name):
		reply["status"] = "ok"
		var v = scene.callv("playtester_" + name, call_args)
		reply["value"] = v if typeof(v) in [TYPE_ARRAY, TYPE_DICTIONARY, TYPE_NIL] else _plain(v)
	else:
		reply["status"] = "missing"
	printerr("@@playtester sync %d" % seq)
	_send(reply)


# ---- inputs
var last_inputs = null  # the actions and keys of the last _apply_inputs ([actions, keys]), as asked
var events_of := {}  # action + "1" (pressed) / "0" (released) -> its InputEventAction, made once, never changed


func _apply_inputs(inputs: Dictionary) -> void:
	var click = inputs.get("click")
	if typeof(click) == TYPE_ARRAY and click.size() == 2:  # pressed on the step's first frame, released on its second
		var at := Vector2(float(click[0]), float(click[1]))
		pending.append(_motion(at))
		pending += _mouse_button(at, BUTTON_LEFT, true)
		later += _mouse_button(at, BUTTON_LEFT, false)
	var mouse = inputs.get("mouse")
	if typeof(mouse) == TYPE_ARRAY and mouse.size() == 2:
		var at := Vector2(float(mouse[0]), float(mouse[1]))
		if at != mouse_at:
			mouse_at = at
			pending.append(_motion(at))
	var buttons := {}
	for b in inputs.get("buttons", []):
		buttons[int(b)] = true
	for b in held_buttons.keys():
		if not buttons.has(b):
			pending += _mouse_button(mouse_at, b, false)
	for b in buttons.keys():
		if not held_buttons.has(b):
			pending += _mouse_button(mouse_at, b, true)
	held_buttons = buttons
	var asked := [inputs.get("actions", []), inputs.get("keys", [])]
	if typeof(asked[0]) == TYPE_ARRAY and typeof(asked[1]) == TYPE_ARRAY and typeof(last_inputs) == TYPE_ARRAY \
			and asked == last_inputs:
		return  # the same held as at the last step: nothing to press or release
	last_inputs = asked
	var actions := {}
	for a in asked[0]:
		if InputMap.has_action(a):
			actions[a] = true
	for a in held_actions.keys():
		if not actions.has(a):
			_action_event(a, false)
	for a in actions.keys():
		if not held_actions.has(a):
			_action_event(a, true)
	held_actions = actions
	var keys := {}
	for k in asked[1]:
		var code := OS.find_scancode_from_string(k)
		if code != 0:
			keys[code] = true
	for k in held_keys.keys():
		if not keys.has(k):
			_key_event(k, false)
	for k in keys.keys():
		if not held_keys.has(k):
			_key_event(k, true)
	held_keys = keys


func _action_event(action: String, pressed: bool) -> void:
	var key := action + ("1" if pressed else "0")
	var ev = events_of.get(key)
	if ev == null:
		ev = InputEventAction.new()
		ev.action = action
		ev.pressed = pressed
		ev.strength = 1.0 if pressed else 0.0
		events_of[key] = ev
	pending.append(ev)


var mouse_at := Vector2()  # where the mouse is (viewport coordinates)
var held_buttons := {}  # the mouse buttons held (Godot's BUTTON_*)


func _screen(at: Vector2) -> Vector2:
	# viewport coordinates (a Control's rect) as the window's, which input events carry
	return tree.get_root().get_final_transform().xform(at)


func _motion(at: Vector2) -> InputEvent:
	var ev := InputEventMouseMotion.new()
	ev.position = _screen(at)
	ev.global_position = ev.position
	ev.button_mask = _mask()
	return ev


func _mask() -> int:
	var m := 0
	for b in held_buttons.keys():
		m |= 1 << (int(b) - 1)
	return m


func _mouse_button(at: Vector2, button: int, pressed: bool) -> Array:
	# the button's event, and with "touch" (button 1) the screen touch Godot would emulate from it
	var ev := InputEventMouseButton.new()
	ev.button_index = button
	ev.pressed = pressed
	ev.position = _screen(at)
	ev.global_position = ev.position
	var out := [ev]
	if touch and button == BUTTON_LEFT:
		var t := InputEventScreenTouch.new()
		t.index = 0
		t.position = ev.position
		t.pressed = pressed
		out.append(t)
	return out


func _key_event(code: int, pressed: bool) -> void:
	var ev := InputEventKey.new()
	ev.scancode = code
	ev.pressed = pressed
	pending.append(ev)


func _input_actions() -> Array:
	var out := []
	for a in InputMap.get_actions():
		if not String(a).begins_with("ui_"):
			out.append(String(a))
	out.sort()
	return out


# ---- what the game looks like
var seen_ids := {}  # the entity ids of the observation being built
var bodies = null  # the scene's physics bodies and scripted nodes (a scene with no "playtester" group), until the tree changes
var bodies_scene := 0


func _entities() -> Array:
	var out := []
	seen_ids = {}
	var scene = tree.current_scene
	if scene == null:
		return out
	var nodes: Array = tree.get_nodes_in_group("playtester")
	if nodes.empty():
		if bodies == null or bodies_scene != scene.get_instance_id():  # walked again only when the tree changed
			bodies = []
			bodies_scene = scene.get_instance_id()
			_bodies(scene, bodies)
		nodes = bodies
	for n in nodes:
		if not is_instance_valid(n) or not n.is_inside_tree():
			continue
		var iid: int = n.get_instance_id()
		var info = node_info.get(iid)
		if info == null:  # id, kind, variable names and where it is are worked out once per node (ids are not reused)
			var where := 1 if n is Node2D else (2 if n is Spatial else 0)
			var pnames := _prop_names(n)
			info = [String(n.name) if n == scene else String(scene.get_path_to(n)), _kind(n), pnames, where, 0, false,
				_reader(n, pnames, where)]
			node_info[iid] = info
		var names: Array = info[2]
		var sig: Array = info[6].read(n)  # the variables' values, then the position
		var pos = null
		match info[3]:
			1:
				pos = sig[-1]
			2:
				pos = Vector2(sig[-1].x, sig[-1].z)
		if info[3] == 0:
			sig.append(null)
		else:
			sig[-1] = pos
		for i in range(names.size()):
			if typeof(sig[i]) > TYPE_STRING:
				sig[i] = _plain(sig[i])
		if delta:
			seen_ids[info[0]] = true
			if last_sig.get(iid) == sig and last_ids.has(info[0]):
				continue  # unchanged since the last observation: not sent
			last_sig[iid] = sig
		var props := {}
		for i in range(names.size()):
			if sig[i] != null:
				props[names[i]] = sig[i]
		var e := {"id": info[0], "kind": info[1], "props": props}
		if pos != null:
			e["pos"] = [pos.x, pos.y]
		out.append(e)
	return out


func _entities_compact() -> void:
	# each entity new or changed since the last observation goes into `ent` as its index, its variables' values
	# (in its schema's order) and its position (x, y) if it has one; its schema ([index, id, kind, names, has_pos])
	# goes into `fresh` the first time; the indices of those that left, into `c_gone`
	ent = []
	fresh = []
	c_gone = []
	var scene = tree.current_scene
	var nodes := []
	if scene != null:
		nodes = tree.get_nodes_in_group("playtester")
		if nodes.empty():
			if bodies == null or bodies_scene != scene.get_instance_id():
				bodies = []
				bodies_scene = scene.get_instance_id()
				_bodies(scene, bodies)
			nodes = bodies
	# the same nodes as at the last step unless the tree changed (a freed node's address may be a new node's: Array
	# == compares object pointers) or the list did (a node joined or left the group): else their infos, what was
	# sent of them, and what is gone are worked out again
	if c_dirty or nodes != c_nodes:
		c_dirty = false
		var old := {}  # index -> what was sent of it
		for i in range(c_infos.size()):
			old[c_infos[i][4]] = c_sigs[i]
		c_nodes = nodes
		c_infos = []
		c_sigs = []
		for n in nodes:
			var iid: int = n.get_instance_id()
			var info = node_info.get(iid)
			if info == null:  # worked out once per node: id, kind, names, where, index, schema sent, reader
				var where := 1 if n is Node2D else (2 if n is Spatial else 0)
				var pnames := _prop_names(n)
				info = [String(n.name) if n == scene else String(scene.get_path_to(n)), _kind(n), pnames,
					where, next_index, false, _reader(n, pnames, where)]
				next_index += 1
				node_info[iid] = info
			c_infos.append(info)
			c_sigs.append(old.get(info[4]))
			old.erase(info[4])
		c_gone = old.keys()
	var k := -1
	for n in nodes:
		k += 1
		var info: Array = c_infos[k]
		var sig: Array = info[6].read(n)  # its variables' values, then its position (if it has one)
		if sig == c_sigs[k]:
			continue  # unchanged since the last observation: not sent
		c_sigs[k] = sig
		var idx: int = info[4]
		if not info[5]:
			info[5] = true
			fresh.append([idx, info[0], info[1], info[2], info[3] != 0])
		ent.append(idx)
		var m: int = info[2].size()
		for i in range(m):
			var v = sig[i]
			if typeof(v) <= TYPE_STRING:  # null, bool, int, float, String
				ent.append(v)
			else:
				ent.append(_plain(v))
		match info[3]:
			1:
				var p: Vector2 = sig[m]
				ent.append(p.x)
				ent.append(p.y)
			2:
				var o: Vector3 = sig[m]
				ent.append(o.x)
				ent.append(o.z)


var readers := {}  # script instance id (0: none) and where -> its reader (_reader)
# GDScript 3's keywords: a variable so named (declared by _get_property_list, or by a script in another language) is
# read with n.get("NAME"), since `n.and` does not compile (and its parse error would read as the game's error line)
const KEYWORDS = ["if", "elif", "else", "for", "while", "match", "break", "continue", "pass", "return", "class",
	"class_name", "extends", "is", "in", "as", "self", "tool", "signal", "func", "static", "const", "enum", "var",
	"onready", "export", "setget", "breakpoint", "preload", "yield", "remote", "master", "puppet", "slave", "remotesync",
	"mastersync", "puppetsync", "sync", "not", "and", "or", "true", "false", "null", "PI", "TAU", "INF", "NAN", "void",
	"assert"]


func _reader(n: Node, names: Array, where: int) -> Reference:
	# an object whose read(node) returns [the node's script variables' values..., its position (where 1: Vector2;
	# 2: the Vector3 origin; 0: none)]. Its source is written once per script: `n.hp` compiles to a named get with
	# the name interned at compile time, about a seventh of the cost of `n.get("hp")`, which interns it each call
	var s = n.get_script()
	var key := "%d/%d" % [s.get_instance_id() if s else 0, where]
	if readers.has(key):
		return readers[key]
	var terms := []
	for name in names:
		var plain: bool = String(name).is_valid_identifier() and not KEYWORDS.has(name)
		terms.append("n." + name if plain else "n.get(%s)" % to_json(name))
	if where == 1:
		terms.append("n.global_position")
	elif where == 2:
		terms.append("n.global_transform.origin")
	var src := GDScript.new()
	src.source_code = "extends Reference\n\n\nfunc read(n):\n\treturn [%s]\n" % PoolStringArray(terms).join(", ")
	src.reload()
	var r = src.new()
	readers[key] = r
	return r


func _bodies(node: Node, out: Array) -> void:
	if (node is PhysicsBody2D and not node is StaticBody2D) or (node is PhysicsBody and not node is StaticBody):
		out.append(node)
	elif (node is Node2D or node is Spatial) and node.get_script() and not (node is Camera2D or node is Camera):
		out.append(node)  # a scripted 2D/3D node: a game object (a grid walker moved by its script, a static body, an area)
	for c in node.get_children():
		_bodies(c, out)


func _kind(n: Node) -> String:
	var s = n.get_script()
	if s and s.resource_path != "":
		return s.resource_path.get_file().get_basename()
	return n.get_class()


func _prop_names(n: Node) -> Array:
	var s = n.get_script()
	if s == null:
		return []
	var key: int = s.get_instance_id()
	if not prop_names.has(key):  # get_property_list is slow: the names are read once per script
		var names := []
		for p in n.get_property_list():
			if p["usage"] & USAGE_SCRIPT_VARIABLE:
				names.append(p["name"])
		prop_names[key] = names
	return prop_names[key]


func _plain(v):
	match typeof(v):
		TYPE_INT, TYPE_REAL, TYPE_BOOL, TYPE_STRING:
			return v
		TYPE_VECTOR2:
			return [v.x, v.y]
		TYPE_VECTOR3:
			return [v.x, v.y, v.z]
		TYPE_OBJECT:
			if v is Node and is_instance_valid(v):
				return String(v.name)
	return null


func _frame():
	if not pixels:
		return null
	var tex = tree.get_root().get_texture()
	var img = tex.get_data() if tex else null
	if img == null:
		return null
	img.flip_y()
	img.convert(Image.FORMAT_RGB8)
	if typeof(capture) == TYPE_ARRAY and capture.size() == 2:
		img.resize(int(capture[0]), int(capture[1]), Image.INTERPOLATE_NEAREST)
	return {"width": img.get_width(), "height": img.get_height(), "format": "rgb8",
		"data": img.get_data() if encoding == "godot-variant" else Marshalls.raw_to_base64(img.get_data())}


# ---- menus: the buttons a player could click now
func _buttons() -> Array:
	# each visible, enabled BaseButton drawn in the root viewport: [x, y, width, height, text] (viewport
	# coordinates), top to bottom, then left to right
	var out := []
	for n in button_nodes.values():
		if not is_instance_valid(n) or not n.is_inside_tree() or n.disabled or not n.is_visible_in_tree() \
				or n.get_viewport() != tree.get_root():
			continue
		var xf: Transform2D = n.get_global_transform_with_canvas()
		var size: Vector2 = n.rect_size * xf.get_scale()
		var text = n.get("text")
		out.append([xf.origin.x, xf.origin.y, size.x, size.y, String(text) if text != null else String(n.name)])
	out.sort_custom(self, "_button_before")
	return out


func _button_before(a: Array, b: Array) -> bool:
	if a[1] != b[1]:
		return a[1] < b[1]
	if a[0] != b[0]:
		return a[0] < b[0]
	return a[4] < b[4]


func _buttons_changed():
	# the buttons, when they differ from those sent last (else null)
	var b := _buttons()
	if b == last_buttons:
		return null
	last_buttons = b
	return b


# ---- watched terms (the analyzed action space's game variables)
func _watched() -> Array:
	var out := []
	for w in watch:
		var values := []
		var how: String = w[1]
		for n in watch_scripts.get(String(w[0]), []):
			if not is_instance_valid(n) or not n.is_inside_tree():
				continue
			if how.begins_with("call:"):
				values.append(_plain(n.call(how.substr(5))))
			elif how.begins_with("get:"):
				values.append(_plain(n.get_indexed(how.substr(4))))
		out.append(values)
	return out


# ---- signals as events
func _on_node_added(node: Node) -> void:
	bodies = null
	c_dirty = true
	if node is BaseButton:
		button_nodes[node.get_instance_id()] = node
	_watch(node)


func _on_node_removed(node: Node) -> void:
	bodies = null
	c_dirty = true
	button_nodes.erase(node.get_instance_id())


func _find_buttons(node: Node) -> void:
	if node is BaseButton:
		button_nodes[node.get_instance_id()] = node
	for c in node.get_children():
		_find_buttons(c)


func _watch_tree(node: Node) -> void:
	_watch(node)
	for c in node.get_children():
		_watch_tree(c)


func _watch(node: Node) -> void:
	var s = node.get_script()
	if s == null or node == self:
		return
	if watch_scripts.has(s.resource_path):
		var nodes: Array = watch_scripts[s.resource_path]
		if not nodes.has(node):
			nodes.append(node)
	for sig in s.get_script_signal_list():
		var n: int = sig["args"].size()
		if n > 4 or node.is_connected(sig["name"], self, "_on_signal_%d" % n):
			continue
		var names := []
		for a in sig["args"]:
			names.append(a["name"])
		node.connect(sig["name"], self, "_on_signal_%d" % n, [node, sig["name"], names])


func _event(values: Array, node, name: String, names: Array) -> void:
	var data := {}
	for i in range(values.size()):
		var v = _plain(values[i])
		data[names[i] if i < names.size() else "arg%d" % i] = v
	var scene = tree.current_scene
	if is_instance_valid(node) and scene and node.is_inside_tree():
		data["source"] = String(scene.get_path_to(node))
	events.append({"name": name, "data": data, "frame": frame_no})


func _on_signal_0(node, name, names):
	_event([], node, name, names)


func _on_signal_1(a, node, name, names):
	_event([a], node, name, names)


func _on_signal_2(a, b, node, name, names):
	_event([a, b], node, name, names)


func _on_signal_3(a, b, c, node, name, names):
	_event([a, b, c], node, name, names)


func _on_signal_4(a, b, c, d, node, name, names):
	_event([a, b, c, d], node, name, names)
