;;; carrel-links-tests.el --- ERT tests of links in the writer's files  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-tests.el, whose helpers these use.
;; Once a library's server runs, its Markdown and Fountain buffers give it
;; their text (`carrel-links-mode'): xref goes to what a link leads to and
;; lists the links to a file, Flymake marks links that lead nowhere, and a
;; rename through Carrel edits an open buffer's links through
;; `workspace/applyEdit', keeping its unsaved text and never saving it.

;;; Code:

(require 'carrel-tests)
(require 'flymake)
(require 'xref)

(defconst carrel-test--scene-text "Met [Ada](../Characters/Ada.md) today.\n"
  "Chapters/One.md on disk: a link to a character.")

(defmacro carrel-test--with-scene (&rest body)
  "Run BODY in a novel whose scene Chapters/One.md links to Characters/Ada.md.
The scene holds `carrel-test--scene-text'; `scene' and `ada' are
their paths."
  (declare (indent 0) (debug t))
  `(carrel-test--with-library
     (carrel-test--project "Saga" "novel")
     (carrel-test--file "Saga" "Characters" "Ada")
     (carrel-test--file "Saga" "Chapters" "One")
     (let ((scene (carrel-test--path "Saga" "Chapters" "One.md"))
           (ada (carrel-test--path "Saga" "Characters" "Ada.md")))
       (with-temp-file ada (insert "# Ada\n"))
       (with-temp-file scene (insert carrel-test--scene-text))
       ,@body)))

(defun carrel-test--file-text (path)
  "Return the text of PATH on disk."
  (with-temp-buffer (insert-file-contents path) (buffer-string)))

(defun carrel-test--link-question ()
  "Return the server's question about links to Ada.md, as (PROMPT . ACTIONS)."
  (seq-find (lambda (q) (string-match-p "“Ada.md”" (car q))) carrel-test--asked))

(ert-deftest carrel-test-links-rename-updates-unsaved-scene ()
  "Renaming a character from the binder updates the link in an open, unsaved scene.
The writer answers Update Links: the buffer's link changes as one
undo step, its unsaved text stays, it stays modified, and the
scene's file on disk is untouched."
  (carrel-test--with-scene
    (let ((buffer (find-file-noselect scene)))
      (with-current-buffer buffer
        (should carrel-links-mode)
        (goto-char (point-max))
        (insert "Unsaved line.\n")
        ;; What the command loop does between two commands.
        (undo-boundary))
      (carrel-test--goto "Saga" "Characters" "Ada.md")
      (carrel-test--answering '("Ada Lovelace.md" "Update Links")
        (call-interactively #'carrel-rename)
        (carrel-test--wait (lambda () (with-current-buffer buffer
                                        (string-match-p "Lovelace" (buffer-string))))
                           "the link updated in the scene's buffer"))
      (let ((question (carrel-test--link-question)))
        (should question)
        (should (equal (cdr question) '("Don't Update" "Update Links"))))
      (should (file-exists-p (carrel-test--path "Saga" "Characters" "Ada Lovelace.md")))
      (with-current-buffer buffer
        (should (equal (buffer-string)
                       "Met [Ada](../Characters/Ada%20Lovelace.md) today.\nUnsaved line.\n"))
        (should (buffer-modified-p))
        (let ((last-command nil))
          (undo))
        (should (equal (buffer-string) (concat carrel-test--scene-text "Unsaved line.\n"))))
      (should (equal (carrel-test--file-text scene) carrel-test--scene-text))
      (carrel-test--wait (lambda () (string-match-p "Updated 1 link in 1 file\\." (carrel-test--messages)))
                         "the server's report"))))

(ert-deftest carrel-test-links-dont-update-changes-nothing ()
  "Answering Don't Update leaves the open scene's link as it was."
  (carrel-test--with-scene
    (let ((buffer (find-file-noselect scene)))
      (carrel-test--goto "Saga" "Characters" "Ada.md")
      (carrel-test--answering '("Ada Lovelace.md" "Don't Update")
        (call-interactively #'carrel-rename)
        (carrel-test--wait #'carrel-test--link-question "the question"))
      (carrel--settle carrel-test--conn nil)
      (with-current-buffer buffer
        (should (equal (buffer-string) carrel-test--scene-text))
        (should-not (buffer-modified-p))))))

(ert-deftest carrel-test-links-apply-edit-all-or-nothing ()
  "An edit the buffer cannot take is refused with a reason, and nothing is changed.
Edits to a file no buffer holds are refused the same way."
  (carrel-test--with-scene
    (let* ((buffer (find-file-noselect scene))
           (uri (intern (concat ":" (carrel--path-to-uri scene))))
           (good (list :range (list :start (list :line 0 :character 0)
                                    :end (list :line 0 :character 3))
                       :newText "Saw"))
           (past-the-end (list :range (list :start (list :line 7 :character 0)
                                            :end (list :line 7 :character 1))
                               :newText "x")))
      (let ((answer (carrel--apply-edit (list :edit (list :changes (list uri (vector good past-the-end)))))))
        (should (eq (plist-get answer :applied) :json-false))
        (should (string-match-p "One.md" (plist-get answer :failureReason))))
      (with-current-buffer buffer
        (should (equal (buffer-string) carrel-test--scene-text))
        (should-not (buffer-modified-p)))
      (let* ((elsewhere (intern (concat ":" (carrel--path-to-uri ada))))
             (answer (carrel--apply-edit (list :edit (list :changes (list uri (vector good)
                                                                         elsewhere (vector good)))))))
        (should (eq (plist-get answer :applied) :json-false))
        (should (string-match-p "“Ada.md” is not open" (plist-get answer :failureReason))))
      (with-current-buffer buffer
        (should (equal (buffer-string) carrel-test--scene-text))
        (setq buffer-read-only t))
      (let ((answer (carrel--apply-edit (list :edit (list :changes (list uri (vector good)))))))
        (should (eq (plist-get answer :applied) :json-false))
        (should (string-match-p "“One.md” is read-only" (plist-get answer :failureReason))))
      (with-current-buffer buffer
        (should (equal (buffer-string) carrel-test--scene-text))
        (setq buffer-read-only nil))
      (should (equal (carrel--apply-edit (list :edit (list :changes (list uri (vector good)))))
                     '(:applied t)))
      (with-current-buffer buffer
        (should (equal (buffer-string) "Saw [Ada](../Characters/Ada.md) today.\n"))
        (should (buffer-modified-p)))
      (should (equal (carrel-test--file-text scene) carrel-test--scene-text)))))

(ert-deftest carrel-test-links-definition-and-references ()
  "xref goes from a link to the file it leads to, and back from it to its links.
The scene's unsaved link is the one the server follows."
  (carrel-test--with-scene
    (with-current-buffer (find-file-noselect scene)
      (goto-char (point-max))
      (insert "And [her again](../Characters/Ada.md).\n")
      (search-forward "her again" nil nil -1)
      (let ((definitions (xref-backend-definitions 'carrel (xref-backend-identifier-at-point 'carrel))))
        (should (equal (mapcar (lambda (x) (xref-location-group (xref-item-location x))) definitions)
                       (list ada))))
      (switch-to-buffer (current-buffer))
      (goto-char (point-min))
      (search-forward "[Ad")
      (let ((this-command 'xref-find-definitions))
        (call-interactively #'xref-find-definitions))
      (should (equal buffer-file-name ada))
      (should (eq (xref-find-backend) 'carrel))
      (let ((references (xref-backend-references 'carrel (xref-backend-identifier-at-point 'carrel))))
        (should (equal (mapcar (lambda (x) (list (xref-location-group (xref-item-location x))
                                                 (xref-location-line (xref-item-location x))
                                                 (xref-item-summary x)))
                               references)
                       (list (list scene 1 "Met [Ada](../Characters/Ada.md) today.")
                             (list scene 2 "And [her again](../Characters/Ada.md).")))))))
  (carrel-test--with-scene
    ;; Nothing at point that leads anywhere: no definition, and no error.
    (with-current-buffer (find-file-noselect scene)
      (goto-char (point-max))
      (should (equal (xref-backend-definitions 'carrel (xref-backend-identifier-at-point 'carrel))
                     nil)))))

(defun carrel-test--flymake-messages ()
  "Return the text of each Flymake diagnostic in this buffer, in order."
  (mapcar #'flymake-diagnostic-text
          (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a)
                                                       (flymake-diagnostic-beg b))))))

(ert-deftest carrel-test-links-broken-links-in-flymake ()
  "Links that lead nowhere are Flymake warnings, and go once the link is fixed."
  (carrel-test--with-scene
    (with-temp-file scene (insert "See [[Nobody]] and [Gone](Gone.md).\n"))
    (with-current-buffer (find-file-noselect scene)
      (should carrel-links-mode)
      (flymake-start)
      (carrel-test--wait (lambda () (= (length (flymake-diagnostics)) 2)) "the broken links")
      (should (equal (carrel-test--flymake-messages)
                     '("Nothing in the library is called “Nobody”."
                       "Nothing in the library is called “Gone.md”.")))
      (should (equal (mapcar #'flymake-diagnostic-type (flymake-diagnostics)) '(:warning :warning)))
      (let ((gone (seq-find (lambda (d) (string-match-p "Gone" (flymake-diagnostic-text d)))
                            (flymake-diagnostics))))
        (should (equal (buffer-substring (flymake-diagnostic-beg gone) (flymake-diagnostic-end gone))
                       "Gone.md")))
      (goto-char (point-min))
      (search-forward "Gone.md")
      (replace-match "../Characters/Ada.md")
      (carrel--flush-documents)
      (carrel-test--wait (lambda () (= (length (flymake-diagnostics)) 1)) "the fixed link's warning to go")
      (should (equal (carrel-test--flymake-messages) '("Nothing in the library is called “Nobody”."))))))

(ert-deftest carrel-test-links-buffers-opened-before-the-server ()
  "A scene visited before the binder opened is given to the server once it starts."
  (let* ((top (make-temp-file "carrel-test" t))
         (lib (expand-file-name "Writing" top))
         (scene (expand-file-name "Saga/Chapters/One.md" lib)))
    (unwind-protect
        (progn
          (make-directory (file-name-directory scene) t)
          (make-directory (expand-file-name "Saga/.carrel" lib))
          (with-temp-file (expand-file-name "Saga/.carrel/project.json" lib)
            (insert "{\"type\":{\"changed\":0,\"value\":\"novel\"},\"version\":1}\n"))
          (with-temp-file scene (insert "See [[Nobody]].\n"))
          (let ((buffer (find-file-noselect scene)))
            (should-not (buffer-local-value 'carrel-links-mode buffer))
            (carrel lib)
            (with-current-buffer buffer
              (should carrel-links-mode)
              (flymake-start)
              (carrel-test--wait (lambda () (flymake-diagnostics)) "the broken link"))))
      (dolist (buffer (buffer-list))
        (when (and (buffer-file-name buffer) (string-prefix-p top (buffer-file-name buffer)))
          (kill-buffer buffer)))
      (let ((conn (carrel--connection-for lib)))
        (when conn
          (kill-buffer (carrel--tree-buffer conn))
          (carrel-shutdown conn)))
      (delete-directory top t))))

(ert-deftest carrel-test-links-follow-a-restarted-server ()
  "A scene's links go quiet when its server stops, and come back with the next one."
  (carrel-test--with-scene
    (let ((buffer (find-file-noselect scene))
          (old carrel-test--conn))
      (kill-buffer (carrel--tree-buffer old))
      (carrel-test--wait (lambda () (not (jsonrpc-running-p old))) "the server to stop")
      (with-current-buffer buffer
        (goto-char (point-min))
        (search-forward "[Ad")
        ;; Another backend, such as etags, answers M-. now, not a dead server.
        (should-not (eq (xref-find-backend) 'carrel)))
      (carrel carrel-test--lib)
      (setq carrel-test--conn (carrel--connection-for carrel-test--lib))
      (should-not (eq carrel-test--conn old))
      (with-current-buffer buffer
        (should (eq (car carrel--document) carrel-test--conn))
        (should (equal (mapcar (lambda (x) (xref-location-group (xref-item-location x)))
                               (xref-backend-definitions 'carrel (xref-backend-identifier-at-point 'carrel)))
                       (list ada)))))))

(ert-deftest carrel-test-links-load-nothing-until-a-file-opens ()
  "Loading carrel.el loads neither Flymake nor xref: on a first start Emacs
natively compiles each library it loads, and the binder should not wait."
  (should (equal (process-lines (expand-file-name invocation-name invocation-directory)
                                "-Q" "--batch" "-L" (file-name-directory carrel-test--source)
                                "--eval" "(progn (require 'carrel) (princ (list (featurep 'flymake) (featurep 'xref))))")
                 '("(nil nil)"))))

(ert-deftest carrel-test-links-moved-buffer-keeps-its-warnings ()
  "A scene showing Flymake warnings follows its rename, and the binder too.
The buffer is reopened on the server under its new name, its warnings
come back there, and the binder shows only the new name."
  (carrel-test--with-scene
    (with-temp-file scene (insert "See [[Nobody]].\n"))
    (let ((buffer (find-file-noselect scene)))
      (with-current-buffer buffer
        (flymake-start)
        (carrel-test--wait (lambda () (flymake-diagnostics)) "the broken link"))
      (carrel-test--goto "Saga" "Chapters" "One.md")
      (carrel-test--answering '("Two.md")
        (call-interactively #'carrel-rename))
      (should (equal (buffer-file-name buffer) (carrel-test--path "Saga" "Chapters" "Two.md")))
      (should-not (carrel-test--row "One.md"))
      (should (carrel-test--row "Two.md"))
      (should-not (string-match-p "^Carrel: " (carrel-test--messages)))
      (with-current-buffer buffer
        (should (equal (cdr carrel--document) (carrel--path-to-uri buffer-file-name)))
        (flymake-start)
        (carrel-test--wait (lambda () (= (length (flymake-diagnostics)) 1)) "the warning back")
        ;; So does a major mode the writer picks.
        (text-mode)
        (should carrel-links-mode)
        (should (eq (xref-find-backend) 'carrel))
        (flymake-start)
        (carrel-test--wait (lambda () (= (length (flymake-diagnostics)) 1)) "the warning in text-mode")))))

(provide 'carrel-links-tests)
;;; carrel-links-tests.el ends here
