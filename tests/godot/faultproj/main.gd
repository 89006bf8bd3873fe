extends Node2D
# Walks with "left"/"right"; emits "turned" when the direction held changes. Game args (the reset's): at frame
# "hang_at" it loops forever, at frame "crash_at" it kills its own process, at frame "quit_at" it quits. On every
# 7th frame with "left" held it fails with a script error (line 33), so the steps with errors depend on the actions
# played.

signal turned(direction)

var frames := 0
var direction := 0


func _physics_process(_delta):
	frames += 1
	var d := 0
	if Input.is_action_pressed("right"):
		d += 1
	if Input.is_action_pressed("left"):
		d -= 1
	position.x += d
	if d != direction:
		direction = d
		emit_signal("turned", d)
	var args = PlaytesterAddon.args  # the add-on (an autoload singleton, out of the tree: docs/protocol.md)
	if frames == int(args.get("hang_at", -1)):
		while true:
			frames += 0
	if frames == int(args.get("crash_at", -1)):
		OS.kill(OS.get_process_id())
	if frames == int(args.get("quit_at", -1)):
		get_tree().quit()
	if frames % 7 == 3 and d < 0:
		position.y = {}["missing"]
