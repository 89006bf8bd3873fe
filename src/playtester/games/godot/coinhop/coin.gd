extends Area2D
# A coin: collected when the player touches it.

signal collected(value)

export var value = 1


func _ready():
	connect("body_entered", self, "_on_body_entered")


func _on_body_entered(body):
	if body.name == "Player":
		emit_signal("collected", value)
		queue_free()
