extends KinematicBody2D
# A patrolling enemy: walks between left and right, hurts the player on contact.

export var speed = 40.0
export var left = 200.0
export var right = 300.0
var dir = 1


func _physics_process(delta):
	position.x += dir * speed * delta
	if position.x > right:
		dir = -1
	elif position.x < left:
		dir = 1
	for b in $Hitbox.get_overlapping_bodies():
		if b.has_method("hurt"):
			b.hurt(1)
