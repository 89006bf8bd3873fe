extends Area2D
# Spikes: hurt whatever stands in them, every frame (the player's invulnerability spaces the hits).

export var damage = 2


func _physics_process(_delta):
	for b in get_overlapping_bodies():
		if b.has_method("hurt"):
			b.hurt(damage)
