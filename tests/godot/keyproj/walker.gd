extends Node2D
# Reads keys directly: Space (an event) hops up, Right/Left held (polled) walk; the InputMap action "wave"
# only counts.

var hops := 0
var waves := 0


func _unhandled_input(event):
	if event is InputEventKey and event.pressed and not event.echo:
		if event.scancode == KEY_SPACE:
			hops += 1
			position.y -= 10


func _physics_process(_delta):
	if Input.is_key_pressed(KEY_RIGHT):
		position.x += 2
	elif Input.is_key_pressed(KEY_LEFT):
		position.x -= 2
	if Input.is_action_just_pressed("wave"):
		waves += 1
