;;; carrel-undo-tests.el --- ERT tests of undo and redo in the binder  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-order-tests.el, whose helpers these
;; use.  U (and `undo' wherever it is bound) sends `carrel.undo' for the
;; library of the row at point, C-? (and `undo-redo') `carrel.redo'; the
;; server says what it took back, and the binder follows its change.

;;; Code:

(require 'carrel-order-tests)

(ert-deftest carrel-test-undo-redo-rename ()
  "U after a rename puts the old name back, on disk and in the binder; C-? renames again."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Rain")
    (carrel-test--goto "My Poems" "Draft" "Rain.md")
    (carrel-test--answering '("Storm") (carrel-test--press "r"))
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Storm.md")))
    (carrel-test--goto "My Poems" "Draft" "Storm.md")
    (let ((sent (carrel-test--recording (carrel-test--press "U"))))
      (should (equal (carrel-test--commands-sent sent "carrel.undo")
                     (list (list :library (carrel-test--draft-uri "Storm.md"))))))
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Rain.md")))
    (should-not (file-exists-p (carrel-test--path "My Poems" "Draft" "Storm.md")))
    (carrel-test--wait (lambda () (and (carrel-test--row "Rain.md") (not (carrel-test--row "Storm.md"))))
                       "the binder to show the old name")
    ;; Point follows the item the server names.
    (should (equal (plist-get (carrel--node-at-point) :uri) (carrel-test--draft-uri "Rain.md")))
    (carrel-test--wait (lambda () (string-match-p "Renamed “Storm.md” back to “Rain.md”\\." (carrel-test--messages)))
                       "the server's report of the undo")
    (let ((sent (carrel-test--recording (carrel-test--press "C-?"))))
      (should (equal (carrel-test--commands-sent sent "carrel.redo")
                     (list (list :library (carrel-test--draft-uri "Rain.md"))))))
    (should (file-exists-p (carrel-test--path "My Poems" "Draft" "Storm.md")))
    (should-not (file-exists-p (carrel-test--path "My Poems" "Draft" "Rain.md")))
    (carrel-test--wait (lambda () (and (carrel-test--row "Storm.md") (not (carrel-test--row "Rain.md"))))
                       "the binder to show the new name again")
    (carrel-test--wait (lambda () (string-match-p "Renamed “Rain.md” to “Storm.md” again\\." (carrel-test--messages)))
                       "the server's report of the redo")))

(ert-deftest carrel-test-undo-keys-of-emacs ()
  "In the binder, Emacs's own undo and redo keys take back the writer's last operation."
  (with-temp-buffer
    (carrel-tree-mode)
    (dolist (key '("C-/" "C-_" "C-x u"))
      (should (eq (key-binding (kbd key)) #'carrel-undo)))
    (should (eq (key-binding (kbd "U")) #'carrel-undo))
    (should (eq (key-binding (kbd "C-?")) #'carrel-redo))
    (should (eq (key-binding [remap undo-redo]) #'carrel-redo))))

(ert-deftest carrel-test-undo-nothing-says-so ()
  "U with nothing to undo shows the server's words and changes nothing."
  (carrel-test--with-library
    (goto-char (point-min))
    (carrel-test--press "U")
    (carrel-test--wait (lambda () (string-match-p "Nothing to undo\\." (carrel-test--messages)))
                       "the server's report")))

(provide 'carrel-undo-tests)
;;; carrel-undo-tests.el ends here
