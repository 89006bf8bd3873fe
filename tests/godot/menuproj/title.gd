extends Control
# the title: Start (a Button) changes to the level; Options is disabled and Secret hidden (neither can be clicked)


func _ready():
	$Start.connect("pressed", self, "_on_start")


func _on_start():
	get_tree().change_scene("res://level.tscn")
