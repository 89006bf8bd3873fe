extends KinematicBody2D
# The player: walks, jumps, kicks off walls, takes damage from spikes and the patrolling enemy.

signal hurt(damage, hp)
signal died()

const SPEED = 100.0
const JUMP_SPEED = -260.0
const GRAVITY = 600.0
# INJECTED BUG 1 (script error under a condition): there is no "left" kick, so jumping while pushing
# against a wall on the left fails with "Invalid get index 'left' (on base: 'Dictionary')".
const WALL_KICK = {"right": Vector2(-140, -220)}

export var hp = 3
var velocity = Vector2()
var facing = 1
var invulnerable = 0.0


func _physics_process(delta):
	var dir = 0
	if Input.is_action_pressed("move_right"):
		dir += 1
	if Input.is_action_pressed("move_left"):
		dir -= 1
	if dir != 0:
		facing = dir
	velocity.x = dir * SPEED
	velocity.y += GRAVITY * delta
	if Input.is_action_just_pressed("jump"):
		if is_on_wall() and dir != 0:
			_wall_kick()
		elif is_on_floor():
			velocity.y = JUMP_SPEED
	velocity = move_and_slide(velocity, Vector2.UP)
	invulnerable = max(0.0, invulnerable - delta)


func _wall_kick():
	var side = "right" if facing > 0 else "left"
	velocity = WALL_KICK[side]


func hurt(damage):
	if invulnerable > 0.0:
		return
	invulnerable = 0.5
	hp -= damage
	emit_signal("hurt", damage, hp)
	# INJECTED BUG 3 (out-of-range value): "== 0" instead of "<= 0": a 2-damage hit at 1 hp skips 0, so
	# hp goes negative and the player never dies.
	if hp == 0:
		emit_signal("died")
